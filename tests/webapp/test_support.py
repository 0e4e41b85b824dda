"""The web app without a server: parsing, the basics computation, pooling, training helpers."""

from __future__ import annotations

import math
import os

import numpy as np
import pytest
import torch

from grader import report as graded
from webapp.compute.basics import attention_basics, build_mask
from webapp.compute.complexity import parse_sizes
from webapp.compute.explore import attention_pooling, multihead_weights
from webapp.compute.matrices import LESSON_Q, LESSON_V, check_int, format_matrix, parse_matrix
from webapp.views.exercise_list import exercise_choices
from webapp.views.report_view import results_frame, score_markdown


def test_parse_matrix_accepts_text_and_python_lists():
    assert parse_matrix("1 2\n3 4") == [[1, 2], [3, 4]]
    assert parse_matrix("1, 2; 3, 4") == [[1, 2], [3, 4]]
    assert parse_matrix("[[1, 2], [3, 4]]") == [[1, 2], [3, 4]]
    assert parse_matrix(format_matrix([[0.5, 2.0], [-1.25, 3.0]])) == [[0.5, 2], [-1.25, 3]]


@pytest.mark.parametrize(("text", "expected"),
                         [("", "empty"), ("1 x", "not a number"), ("1 2\n3", "same number"),
                          ("nan", "finite"), ("\n".join(["1"] * 17), "at most")])
def test_parse_matrix_errors_name_the_problem(text, expected):
    with pytest.raises(ValueError, match=expected):
        parse_matrix(text, "Q")


def test_check_int_range_and_type():
    assert check_int("3", "heads", 1, 8) == 3
    for bad in ("", "2.5", "abc", 0, 9):
        with pytest.raises(ValueError, match="heads"):
            check_int(bad, "heads", 1, 8)


def test_unscaled_scores_are_plain_dot_products():
    r = attention_basics(LESSON_Q, LESSON_Q, LESSON_V, scale=False)
    q = torch.tensor(parse_matrix(LESSON_Q), dtype=torch.float64)
    assert torch.equal(r.scores, q @ q.T)  # the lesson's scores times √4
    assert torch.allclose(r.weights, torch.softmax(q @ q.T, dim=-1))


def test_additive_scores_match_the_formula_with_the_layers_weights():
    torch.manual_seed(3)
    from transformer_lab.attention import AdditiveAttention

    layer = AdditiveAttention(4, 4, 8).double()  # the same seed → the same weights as the page
    q = torch.tensor(parse_matrix(LESSON_Q), dtype=torch.float64)
    v = torch.tensor(parse_matrix(LESSON_V), dtype=torch.float64)
    _, expected = layer(q[None], q[None], v[None])  # the library's own forward, (1, n, m)
    r = attention_basics(LESSON_Q, LESSON_Q, LESSON_V, scoring="additive", seed=3)
    assert torch.allclose(r.weights, expected[0])


def test_valid_length_mask_hides_keys():
    assert build_mask("valid", 2, 3, 1).tolist() == [[True, False, False]] * 2
    r = attention_basics(LESSON_Q, LESSON_Q, LESSON_V, mask="valid", valid_len=2)
    assert torch.all(r.weights[:, 2] == 0) and torch.allclose(r.weights.sum(-1), torch.ones(3, dtype=torch.float64))


def test_multihead_weights_rows_sum_to_one_and_respect_causality():
    w = multihead_weights(16, 4, 5, "causal")  # (h, n, n)
    assert w.shape == (4, 5, 5)
    assert torch.allclose(w.sum(-1), torch.ones(4, 5))
    assert torch.all(w.triu(diagonal=1) == 0)


def test_pooling_fixed_w_is_the_gaussian_softmax():
    r = attention_pooling(n_train=20, noise=0.1, w=2.0, steps=3, seed=1)
    d = (r.x_test[:, None] - r.x_train[None, :]) * 2.0
    expected = torch.softmax(-0.5 * d**2, dim=-1)  # SOURCES.md: softmax(-½((x − x_i)w)²)
    assert torch.allclose(r.fixed_attn, expected, atol=1e-6)
    assert torch.allclose(r.fixed_pred, expected @ r.y_train, atol=1e-5)
    assert len(r.history) == 4 and r.history["loss"].iloc[-1] < r.history["loss"].iloc[0]


def test_parse_sizes():
    assert parse_sizes("256, 64 128") == [64, 128, 256]
    for bad, msg in (("64", "at least two"), ("64, x", "whole numbers"), ("64, 4096", "between")):
        with pytest.raises(ValueError, match=msg):
            parse_sizes(bad)
    # the cause a learner can act on first (the chromium walk): not a number, too large, the same
    # length twice
    for bad, msg in (("abc", "whole numbers"), ("100000000", "between"), ("64, 64", "at least two")):
        with pytest.raises(ValueError, match=msg):
            parse_sizes(bad)


def test_exercise_list_and_report_view():
    choices = exercise_choices()
    assert choices and all(isinstance(i, str) for _, i in choices)
    report = graded.Report("scaled-dot-product", summary={"en": "1 of 2", "zh": "2 个中 1 个"},
                    tests=[graded.TestResult("a", 1.0, 1.0, True, {"en": "", "zh": ""}),
                           graded.TestResult("b", 0.0, 2.0, False, {"en": "x", "zh": "x"}, mistake="no-scale")])
    assert "1 / 3" in score_markdown(report)
    for lang in ("en", "zh"):  # internal mistake ids never reach learners (walk-through issue 1)
        assert "no-scale" not in score_markdown(report, lang)
        assert "Mistakes recognised" not in score_markdown(report, lang)
    assert results_frame(report)["result"].tolist() == ["✗", "✓"]  # failed tests first (issue 9)
    assert results_frame(report)["test"].tolist() == ["b", "a"]
    assert list(results_frame(report, "zh").columns)[0] == "测试"
    # a CJK font draws ✓ like √: the Chinese table says it in words
    assert results_frame(report, "zh")["结果"].tolist() == ["✗ 未通过", "✓ 通过"]


def test_translate_samples_say_right_and_wrong_in_words_in_chinese():
    import pandas as pd

    from webapp.train.view import localise_predictions

    df = pd.DataFrame([(0, "go .", "va !", "va !", "✓"), (1, "hi .", "salut .", "tu .", "✗")],
                      columns=["#", "source", "target", "prediction", "ok"])
    assert localise_predictions(df, "en").iloc[:, -1].tolist() == ["✓", "✗"]
    zh = localise_predictions(df, "zh")
    assert zh.iloc[:, -1].tolist() == ["对", "错"] and "正确" in zh.columns[-1]


def test_training_helpers_translate_reports_unknown_words():
    from webapp.train import training

    s = training.page_config("translate", heads=2, d_model=16, layers=1, d_ff=32, steps=5)
    run = training.new_run(s)
    for msg in training.stream(run):
        training.apply(run, msg)
    assert run.summary["steps"] == 5 and len(run.history) >= 5
    out = training.translate(run, "i lost zebraquux .")
    assert out["unknown"] == ["zebraquux"]
    assert out["reference"] is None and out["bleu"] is None and out["seen"] == "new"
    known = training.translate(run, "i lost .")
    assert known["reference"] == "j'ai perdu ." and 0.0 <= known["bleu"] <= 1.0
    assert known["seen"] == "train"  # a training pair: its score shows memorisation only
    held = run.summary["heldout"]  # scores on sentences never trained on
    assert held["all"]["n"] == len(run.task.heldout) and 0 <= held["all"]["bleu"] <= 100
    # the page's examples are held-out sentences without an unknown word (no <unk> id 3)
    batch = training.example_batch(run)
    assert batch.src.shape[0] > 0 and not (batch.src == 3).any()
    trained = {en for en, _ in run.task.train}
    assert not trained & {en for en, _ in training.example_pairs(run)}
    assert np.allclose(known["cross"].sum(-1).numpy(), 1.0, atol=1e-5)  # rows of weights
    with pytest.raises(ValueError, match="empty"):
        training.translate(run, "   ")
    maps, q, k = training.attention_for(run, 0, "encoder_self")
    assert len(maps) == 1 and maps[0].shape == (2, len(q), len(k))
    assert math.isfinite(run.summary["loss"])


def test_hidden_tests_download_only_when_a_repo_is_named(monkeypatch, tmp_path):
    import huggingface_hub

    from webapp.services import hidden_tests as hidden

    calls = []
    monkeypatch.setattr(huggingface_hub, "snapshot_download", lambda **kw: calls.append(kw))
    monkeypatch.setattr(hidden, "_DONE", False)
    monkeypatch.delenv("LAB_HIDDEN_REPO", raising=False)
    # setenv first so monkeypatch restores the variable: ensure_hidden_tests() sets it.
    monkeypatch.setenv("LAB_HIDDEN_DIR", "")
    monkeypatch.delenv("LAB_HIDDEN_DIR")
    assert hidden.ensure_hidden_tests() is None and calls == []  # local checkout: hidden/
    monkeypatch.setattr(hidden, "_DONE", False)
    monkeypatch.setenv("LAB_HIDDEN_REPO", "someone/private-tests")
    monkeypatch.setenv("HF_TOKEN", "secret")
    folder = hidden.ensure_hidden_tests()
    assert calls == [{"repo_id": "someone/private-tests", "repo_type": "dataset",
                      "local_dir": folder, "token": "secret"}]
    assert os.environ["LAB_HIDDEN_DIR"] == folder
    hidden.ensure_hidden_tests()
    assert len(calls) == 1  # once per process


def test_default_sentence_is_held_out_and_in_vocabulary():
    from transformer_lab.tasks.translation import TranslationTask, preprocess
    from webapp.train.page import DEFAULT_SENTENCE

    task = TranslationTask()
    assert preprocess(DEFAULT_SENTENCE) in {en for en, _ in task.heldout}
    assert preprocess(DEFAULT_SENTENCE) not in {en for en, _ in task.train}
    assert task.unknown_words(DEFAULT_SENTENCE) == []


def test_snapshots_follow_training_and_the_page_can_step_through_them():
    from webapp.train import training

    s = training.page_config("reverse", heads=2, d_model=16, layers=1, d_ff=32, steps=32)
    run = training.new_run(s)
    for msg in training.stream(run):
        training.apply(run, msg)
    steps = [snap["step"] for snap in run.snapshots]
    assert steps[0] == 0 and steps[-1] == 32 and steps == sorted(steps)
    first, last = run.snapshots[0]["maps"]["cross"][0], run.snapshots[-1]["maps"]["cross"][0]
    assert first.shape[0] == 2 and torch.allclose(last.sum(-1), torch.ones(last.shape[:-1]), atol=1e-5)
    assert not torch.equal(first, last)  # training changed the attention


def _unkeyed():
    raise ValueError("something nobody wrote yet")


# The same five errors as when error_zh parsed English sentences (issue 23: errors carry keys,
# so each is now raised by the real function and rendered from the catalogue).
@pytest.mark.parametrize("raise_it", [
    lambda: check_int(9, "heads", 1, 8), lambda: parse_matrix("1 0\nx 1", "Q"),
    lambda: multihead_weights(16, 5, 4), lambda: parse_sizes("64"), _unkeyed])
def test_chinese_error_messages_have_no_english_words(raise_it):
    import re

    from webapp.pages.common import message

    with pytest.raises(ValueError) as err:
        raise_it()
    zh = message(err.value, "zh")
    words = set(re.findall(r"[A-Za-z_]{2,}", zh)) - {"embed_dim", "d_model"}
    assert not words, zh


def test_transformer_and_bahdanau_runs_compare_side_by_side():
    from webapp.train import training
    from webapp.train.view import caption, compare_table, kept_name

    kept = {}
    for model, pe in (("transformer", "none"), ("bahdanau", "sinusoidal")):
        s = training.page_config("reverse", heads=2, d_model=16, layers=1, d_ff=32, steps=3, pe=pe,
                                 model=model)
        run = training.new_run(s)
        for msg in training.stream(run):
            training.apply(run, msg)
        kept[kept_name(run, len(kept) + 1, "en")] = {"run": run}
        assert run.summary["parameters"] == run.model.num_parameters()
    table = compare_table(kept, "en")
    assert table["model"].tolist() == ["Transformer", "Bahdanau (GRU + additive attention)"]
    transformer, bahdanau = (item["run"] for item in kept.values())
    assert table["parameters"].tolist() == [transformer.model.num_parameters(),
                                            bahdanau.model.num_parameters()]
    assert "vertical stripes" in caption(transformer, "encoder_self", "en")  # no PE: order-blind
    assert "anti-diagonal" in caption(bahdanau, "cross", "en")
    with pytest.raises(ValueError, match="no encoder_self attention"):
        training.attention_for(bahdanau, 0, "encoder_self")  # a GRU has no self-attention


def test_corpus_choice_is_checked_and_defaults_to_the_environment(monkeypatch):
    from webapp.train import training

    with pytest.raises(ValueError, match="unknown corpus"):
        training.page_config("translate", corpus="klingon")
    monkeypatch.delenv("LAB_CORPUS", raising=False)
    assert training.page_config("translate").corpus == "bundled"
    monkeypatch.setenv("LAB_CORPUS", "tatoeba")  # a Space with internet
    assert training.page_config("translate").corpus == "tatoeba"
    assert training.page_config("translate", corpus="bundled").corpus == "bundled"  # page choice wins


def test_an_input_error_is_a_finished_sentence_before_the_kept_note():
    """'… choose cross (What is shown below …)': the error ends with a stop before the note."""
    import gradio as gr

    from webapp.i18n import Term, input_error
    from webapp.pages.common import friendly

    @friendly(3)
    def fails(kind, request: gr.Request):  # the Train page's error, keyed (issue 23)
        raise input_error("no_attention_choose", model="Bahdanau", kind=Term("encoder_self"),
                          choices=Term("cross"))

    for header, stop in (("en-US", "choose cross. (What"), ("zh-CN", "交叉注意力。（")):
        text = fails("x", gr.Request(headers={"accept-language": header}))[-1]
        assert stop in text, text


def test_the_pooling_page_says_what_w_does_and_w_does_it():
    """Issue 20, item 5: raising the "fixed kernel width w" from 1 to 10 made the kernel
    narrower (w multiplies the distance) while the text said a wider kernel smooths. The label
    and the caption now say a larger w is a narrower kernel; the numbers agree."""
    from webapp.compute.explore import attention_pooling
    from webapp.i18n import tr

    narrow, wide = attention_pooling(w=10.0, steps=0), attention_pooling(w=1.0, steps=0)
    assert narrow.fixed_attn.max(dim=1).values.mean() > wide.fixed_attn.max(dim=1).values.mean()
    assert "larger w = narrower kernel" in tr("pooling.w", "en")
    assert "w 越大核越窄" in tr("pooling.w", "zh")
    assert "smaller w (a wider kernel) gives a smoother curve" in tr("pool.caption", "en", w0=1, w1=9)
