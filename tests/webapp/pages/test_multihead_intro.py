"""The multi-head explorer describes what it shows: a random layer, or the trained run's layers ×
heads on the real tokens of held-out example 0 (it kept the random layer's intro for both)."""

from __future__ import annotations

import pytest

from transformer_lab.experiments import ExperimentConfig
from webapp.i18n import tr
from webapp.pages.multihead import heads_of, no_run_view, on_source
from webapp.train.training import example_batch, new_run


@pytest.fixture(scope="module")
def run():
    r = new_run(ExperimentConfig.from_preset("reverse", layers=2, heads=2))
    r.summary = {"steps": 7}
    return r


def real_source_tokens(run) -> list[str]:
    batch = example_batch(run)
    ids = batch.src[0, : int(batch.src_lens[0])].tolist()
    return [str(t) for t in run.task.vocab.to_tokens(ids)]


@pytest.mark.parametrize("kind", ["encoder_self", "cross"])
def test_trained_intro_names_the_runs_layers_heads_steps_and_real_tokens(run, kind):
    maps, q, k, _, intro = heads_of("trained", kind, 16, 4, 6, "none", 3, 0, run, "en")
    assert len(maps) == 2 and all(m.shape[0] == 2 for m in maps)  # the run's own 2 × 2
    assert "**2 × 2** (layers × heads)" in intro and "7 training steps" in intro
    src = real_source_tokens(run)
    assert f"input `{' '.join(src)}`" in intro
    assert list(k) == src  # the maps are drawn over the same tokens the intro names
    assert "random tokens" not in intro
    zh = heads_of("trained", kind, 16, 4, 6, "none", 3, 0, run, "zh")[4]
    assert "**2 × 2**（层 × 头）" in zh and "训练 7 步" in zh and f"输入 `{' '.join(src)}`" in zh


def test_random_source_keeps_the_random_layer_intro():
    *_, intro = heads_of("random", "cross", 16, 4, 6, "none", 3, 0, None, "en")
    assert "random tokens" in intro


def test_switching_source_shows_only_the_controls_that_apply(run):
    intro, random_row, compute, kind = on_source("trained", "en", run)
    assert random_row["visible"] is False and compute["visible"] is False and kind["visible"]
    assert "reverse" in intro
    intro, random_row, compute, kind = on_source("random", "zh", None)
    assert random_row["visible"] and compute["visible"] and kind["visible"] is False
    assert "随机" in intro
    assert "还没有训练好的模型" in on_source("trained", "zh", None)[0]


def test_a_bahdanau_run_offers_only_its_cross_attention():
    run = new_run(ExperimentConfig.from_preset("reverse", model="bahdanau"))
    *_, kind = on_source("trained", "en", run, "encoder_self")
    assert [value for _, value in kind["choices"]] == ["cross"] and kind["value"] == "cross"
    maps, *_, intro = heads_of("trained", "cross", 16, 4, 6, "none", 3, 0, run, "en")
    assert len(maps) == 1 and maps[0].shape[0] == 1  # one additive "head"
    assert "**1 × 1** (layers × heads)" in intro and "Bahdanau" in intro
    *_, kind = on_source("trained", "zh", new_run(ExperimentConfig.from_preset("reverse")), "decoder_self")
    assert [value for _, value in kind["choices"]] == ["encoder_self", "decoder_self", "cross"]
    assert kind["value"] == "decoder_self" and kind["choices"][2][0] == "交叉注意力"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_trained_source_before_any_run_is_a_calm_state_not_an_input_error(lang):
    # It said "input error: train a model first" under the random layer's grid and caption,
    # with the cross-attention choice shown for a model that does not exist.
    grid, pick, big, shapes, cap, intro, status = no_run_view(lang)
    assert all(u["visible"] is False for u in (grid, pick, big, shapes))  # nothing stale below
    assert cap == "" and status == tr("mh.status.no_run", lang)
    assert status == ("No trained model yet: train one on the Train page, then come back."
                      if lang == "en" else "还没有训练好的模型：先在“训练”页训练一个，再回到这里。")
    assert intro == tr("mh.intro.no_run", lang)
    assert ("No trained model yet" in intro and "Train page" in intro if lang == "en"
            else "还没有训练好的模型" in intro and "“训练”页" in intro)
    for text in (intro, status):
        assert "error" not in text.lower() and "错误" not in text and "有误" not in text
        assert "⚠" not in text
    *_, kind = on_source("trained", lang, None)
    assert kind["visible"] is False  # no attention kinds to choose without a model
    with pytest.raises(ValueError):  # the page never reaches this: on_live shows no_run_view
        heads_of("trained", "cross", 16, 4, 6, "none", 3, 0, None, lang)


def test_the_enlarged_heads_title_uses_the_pages_punctuation():
    assert tr("mh.big_title", "zh", head="1 · 2") == "放大的头（1 · 2）"
    assert tr("mh.big_title", "en", head="1 · 2") == "Enlarged head (1 · 2)"


def test_the_explorer_redraws_when_its_tab_is_opened_with_no_progress_in_its_text():
    # A run that ended while the tab was closed appears when it is opened; Gradio 6.31 writes a
    # hidden event's progress ("queue: 1/1") at opacity 0 into its outputs, so none may get it.
    import app

    config = app.demo.get_config_file()
    ids = {c["props"].get("elem_id"): c["id"] for c in config["components"]}
    tab = next(c["id"] for c in config["components"]
               if c["type"] == "tabitem" and c["props"].get("id") == "multihead")
    deps = config["dependencies"]
    opened = [d for d in deps if [tab, "select"] in [list(t) for t in d["targets"]]]
    assert opened, "the Multi-head tab has no select event"
    writes_intro = [d for d in deps if ids["mh-intro"] in d["outputs"]]
    assert len(writes_intro) >= 3  # live, source change, tab select
    for d in writes_intro:
        assert d["show_progress"] == "hidden"
        assert d["show_progress_on"] and ids["mh-intro"] not in d["show_progress_on"], d


# Learner 4: a trained Bahdanau model (1 layer × 1 head) was captioned "Heads specialise: compare
# which keys each one looks at." There is one head: its own caption, in both languages.
@pytest.mark.parametrize("model, layers, heads", [("bahdanau", 1, 1), ("transformer", 1, 1)])
def test_a_one_head_model_is_not_told_its_heads_specialise(model, layers, heads):
    run = new_run(ExperimentConfig.from_preset("reverse", model=model, layers=layers,
                                               heads=heads))
    run.summary = {"steps": 3}
    for lang, many in (("en", "Heads specialise"), ("zh", "各个头会分工")):
        maps, *_, cap, _ = heads_of("trained", "cross", 16, 4, 6, "none", 3, 0, run, lang)
        assert len(maps) == 1 and maps[0].shape[0] == 1
        assert many not in cap
        assert cap == tr("mh.trained_caption.one", lang, task=tr("task.reverse", lang),
                         kind=tr("kind.cross", lang))
    assert "single head" in heads_of("trained", "cross", 16, 4, 6, "none", 3, 0, run, "en")[3]
    assert "只有一个头" in heads_of("trained", "cross", 16, 4, 6, "none", 3, 0, run, "zh")[3]


def test_a_many_head_model_is_told_what_its_heads_do_measured(run):
    # Issue 26, item 6: "Heads specialise" was fixed text, even for heads that attend alike.
    # (This test asserted that text; it now asserts the measured sentence that replaced it.)
    from webapp.compute.explore import head_difference

    maps, *_ = heads_of("trained", "cross", 16, 4, 6, "none", 3, 0, run, "en")
    cap = heads_of("trained", "cross", 16, 4, 6, "none", 3, 0, run, "en")[3]
    mean, _ = head_difference(maps)
    assert f"{100 * mean:.0f}% of their weight" in cap
    assert ("attend alike" in cap) == (mean < 0.15) and "Heads specialise" not in cap
    zh = heads_of("trained", "cross", 16, 4, 6, "none", 3, 0, run, "zh")[3]
    assert f"{100 * mean:.0f}% 的权重" in zh


def test_the_head_difference_is_zero_for_equal_heads_and_one_for_disjoint_ones():
    import torch

    from webapp.compute.explore import head_difference

    same = torch.full((2, 3, 4), 0.25)
    assert head_difference([same])[0] == 0.0
    eye = torch.eye(3).expand(1, 3, 3)
    flip = torch.eye(3).flip(-1).expand(1, 3, 3)
    mean, (most, layer, a, b) = head_difference([torch.cat([eye, flip])])
    assert abs(mean - 2 / 3) < 1e-9 and (layer, a, b) == (1, 1, 2)  # the middle row agrees
    assert head_difference([torch.ones(1, 2, 2)]) is None
