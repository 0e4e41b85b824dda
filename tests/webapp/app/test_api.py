"""The app through gradio_client: lesson numbers, grading, a short training run, bad input."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from gradio_client.exceptions import AppError

REPO = Path(__file__).resolve().parents[3]

LESSON = ("1 0 1 0\n0 1 0 1\n1 1 1 1", "1 0 1 0\n0 1 0 1\n1 1 1 1", "1 2 3 4\n5 6 7 8\n9 10 11 12")
# SOURCES.md, exercise 1: the lesson's weights and the first token's context vector.
LESSON_WEIGHTS = [[0.4223, 0.1554, 0.4223], [0.1554, 0.4223, 0.4223], [0.2119, 0.2119, 0.5761]]
# SOURCES.md, worked positional-encoding table (d_model = 4, positions 0..4).
PE_TABLE = [[0.0, 1.0, 0.0, 1.0], [0.8415, 0.5403, 0.01, 0.9999], [0.9093, -0.4161, 0.02, 0.9998],
            [0.1411, -0.99, 0.03, 0.9996], [-0.7568, -0.6536, 0.04, 0.9992]]
EXERCISE = "causal-mask"


def hidden_file(exercise_id: str, name: str) -> str:
    return (REPO / "hidden" / exercise_id / name).read_text(encoding="utf-8")


def numbers(table: dict) -> list[list[float]]:
    """The numeric part of a matrix_table sent as a Dataframe (first column = row labels)."""
    return [row[1:] for row in table["data"]]


def test_import_is_light_and_builds_demo():
    code = ("import sys, app, gradio; assert isinstance(app.demo, gradio.Blocks); "
            "print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "False"  # torch waits for the first use: fast start-up


def test_support_modules_do_not_import_gradio():
    code = ("import sys, webapp.compute.basics, webapp.compute.explore, webapp.train.training, "
            "webapp.compute.complexity, webapp.views.report_view; print('gradio' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "False"


def test_stable_endpoints(client):
    api = client.view_api(print_info=False, return_format="dict")["named_endpoints"]
    assert [p["parameter_name"] for p in api["/grade"]["parameters"]][:2] == ["exercise_id", "code"]
    train = {p["parameter_name"]: p for p in api["/train"]["parameters"]}
    assert {"task", "heads", "d_model", "layers", "d_ff", "dropout", "pe", "steps", "device"} <= set(train)
    assert all(p["parameter_has_default"] for p in train.values())  # old callers keep working


def test_attention_basics_reproduces_the_lesson(client):
    shapes, scores, weights, _fig, output, status = client.predict(
        *LESSON, "dot", True, "none", 2, 0, api_name="/attention_basics")
    assert numbers(scores) == [[1, 0, 1], [0, 1, 1], [1, 1, 2]]
    assert np.allclose(numbers(weights), LESSON_WEIGHTS, atol=1e-4)
    assert numbers(output)[0] == pytest.approx([5, 6, 7, 8], abs=1e-4)
    assert status == ""


def test_attention_basics_causal_mask_zeroes_the_future(client):
    _, _, weights, _, _, _ = client.predict(*LESSON, "dot", True, "causal", 2, 0,
                                            api_name="/attention_basics")
    w = numbers(weights)
    assert w[0] == [1.0, 0.0, 0.0]
    # Row 1 sees keys 0 and 1 with scaled scores 0 and 1 (lesson) → softmax by hand.
    assert np.allclose(w[1], [1 / (1 + math.e), math.e / (1 + math.e), 0.0], atol=1e-4)


@pytest.mark.parametrize(
    ("q", "k", "mask", "expected"),
    [("1 a", "1", "none", "not a number"), ("", "1", "none", "empty"),
     ("1 2\n3", "1 2", "none", "same number of columns"), ("1 2", "1 2 3", "none", "same width"),
     ("1 2\n3 4", "1 2", "causal", "as many queries as keys")],
)
def test_attention_basics_bad_input_gives_a_message(client, q, k, mask, expected):
    *_, status = client.predict(q, k, "1 2 3" if k == "1 2 3" else k, "dot", True, mask, 2, 0,
                                api_name="/attention_basics")
    assert status.startswith("⚠️") and expected in status


def test_multihead_heads_must_divide(client):
    *_, status = client.predict(16, 5, 6, "none", 3, 0, api_name="/multihead")
    assert "not divisible" in status
    grid, shapes, status = client.predict(16, 4, 6, "causal", 3, 0, api_name="/multihead")
    assert status == ""
    rows = {r[0]: r[1] for r in shapes["data"]}
    assert rows["split Q into heads"] == "(1, 4, 6, 4)"  # (B, h, n, d_k) with d_k = 16 / 4
    assert json.loads(grid["plot"])["data"][0]["type"] == "heatmap"


def test_positional_worked_table_and_odd_width(client):
    # Issue 26, item 11: the worked table is the learner's own table (its first 5 positions × 8
    # dimensions); it was the lesson's d_model = 4 table whatever d_model was asked, which this
    # test asserted for d_model = 32. The lesson's table is what d_model = 4 gives.
    from transformer_lab.positional import sinusoidal_table

    _, _, worked, status = client.predict(60, 4, "0, 1", api_name="/positional")
    assert np.allclose(numbers(worked), PE_TABLE, atol=1e-4)
    _, _, worked, status = client.predict(60, 32, "0, 1", api_name="/positional")
    assert np.allclose(numbers(worked), sinusoidal_table(60, 32)[:5, :8].numpy(), atol=1e-4)
    *_, status = client.predict(60, 31, "0, 1", api_name="/positional")
    assert "even" in status


def test_permutation_experiment(client):
    table, status = client.predict(8, 0, api_name="/permutation")
    rows = table["data"]
    assert [r[0] for r in rows] == ["A B C D E", "E D C B A", "A C B E D"]
    assert all(abs(r[1]) < 1e-12 for r in rows)  # without PE: the same rows, permuted
    assert all(r[2] > 1e-3 for r in rows[1:])  # with PE: position changes the outputs


def test_pooling_and_complexity(client):
    fixed, learned, history, status = client.predict(30, 0.5, 1.0, 3, 0.5, 0, api_name="/pooling")
    assert status == "" and [r[0] for r in history["data"]] == [0, 1, 2, 3]
    *_, status = client.predict(30, 0.5, 1.0, 3, "fast", 0, api_name="/pooling")
    assert "learning rate" in status
    plot, table, status = client.predict("32, 64", 16, api_name="/complexity")
    assert status == "" and len(table["data"]) == 3  # self-attention, GRU, convolution
    *_, status = client.predict("32, lots", 16, api_name="/complexity")
    assert "whole numbers" in status


def test_grade_correct_and_wrong(client):
    good = client.predict(EXERCISE, hidden_file(EXERCISE, "reference.py"), api_name="/grade")
    assert good["score"] == good["max_score"] > 0
    assert {"name", "score", "max_score", "status", "output"} <= set(good["tests"][0])
    from grader.exercises import get

    first = get(EXERCISE).mistakes()[0]  # a mutant: the reference with one named edit
    name = first.name
    bad = client.predict(EXERCISE, first.source, api_name="/grade")
    assert bad["score"] < bad["max_score"]
    assert name in bad["extra_data"]["mistakes"]


@pytest.mark.parametrize(("ex", "code", "expected"),
                         [(EXERCISE, "   ", "empty"), ("no-such-exercise", "x = 1", "unknown")])
def test_grade_bad_input_is_a_clear_error(client, ex, code, expected):
    with pytest.raises(AppError, match=expected):
        client.predict(ex, code, api_name="/grade")


def test_short_training_run(client):
    out = client.predict("reverse", 2, 16, 1, 32, 0.0, "sinusoidal", 12, "cpu", 0, api_name="/train")
    assert out["summary"]["steps"] == 12 and out["summary"]["stopped"] == "max_steps"
    assert out["settings"]["d_model"] == 16 and out["settings"]["heads"] == 2
    assert out["eval"] and all(math.isfinite(r["loss"]) for r in out["eval"])


def test_translate_run_reports_held_out_scores(client):
    from transformer_lab.tasks.translation import TranslationTask

    out = client.predict("translate", 2, 16, 1, 32, 0.0, "sinusoidal", 5, "cpu", 0,
                         api_name="/train")
    held = out["summary"]["heldout"]
    task = TranslationTask()  # the same bundled corpus and split
    assert held["all"]["n"] == len(task.heldout) and held["heldout_sentences"] == len(task.heldout)
    trained = {en for en, _ in task.train}
    assert held["examples"] and not trained & {e["en"] for e in held["examples"]}  # unseen
    assert all(not task.unknown_words(e["en"]) for e in held["examples"])  # in-vocabulary
    assert 0 <= held["all"]["bleu"] <= 100 and 0 <= held["all"]["bleu_d2l"] <= 1
    assert 0 <= held["all"]["exact_match"] <= 1 and 0.5 < held["vocab_share"] <= 1


def test_bahdanau_trains_through_the_api(client):
    out = client.predict("reverse", 2, 16, 1, 32, 0.0, "sinusoidal", 4, "cpu", 0, "bahdanau",
                         api_name="/train")
    assert out["settings"]["model"] == "bahdanau" and out["summary"]["steps"] == 4


def test_grading_does_not_wait_for_training(client):
    """Separate queue pools: a grade submitted during a training run comes back before it ends."""
    training = client.submit("reverse", 4, 32, 1, 64, 0.0, "sinusoidal", 800, "cpu", 1,
                             api_name="/train")
    deadline = time.time() + 30
    while training.status().code.name not in ("PROCESSING", "ITERATING") and time.time() < deadline:
        time.sleep(0.1)
    report = client.predict(EXERCISE, "x = 1", api_name="/grade")
    assert report["score"] == 0 and not training.done()  # graded while training still ran
    assert training.result(timeout=300)["summary"]["steps"] > 0


@pytest.mark.parametrize(("kwargs", "expected"),
                         [({"heads": 3, "d_model": 16}, "divisible"), ({"task": "juggle"}, "unknown task"),
                          ({"steps": 10**7}, "steps"), ({"pe": "sinusoidal", "d_model": 15, "heads": 1}, "even")])
def test_training_bad_input_is_a_clear_error(client, kwargs, expected):
    with pytest.raises(AppError, match=expected):
        client.predict(**kwargs, api_name="/train")


def test_an_api_learner_reads_the_numbers_it_is_graded_on(client):
    """Exercise 1's Part A is graded on each learner's own numbers: an API caller reads its own at
    /your_numbers, and the reference written with them scores full under the same label."""
    from gradebook.identity import API_SUFFIX, api_id, label_for
    from grader import variants
    from grader.exercises import get

    ex = get("manual-attention")
    import app

    values = ex.variant_values(app.LAB.submitter.numbers_key(api_id(label_for("ada", API_SUFFIX))))
    shown = client.predict("manual-attention", "ada", api_name="/your_numbers")
    assert shown == variants.show(ex.public_dir, values)
    assert shown != client.predict("manual-attention", "bob", api_name="/your_numbers")
    assert client.predict("causal-mask", "ada", api_name="/your_numbers") == ""
    own = variants.render(hidden_file("manual-attention", "reference.py"), values)
    good = client.predict("manual-attention", own, "ada", api_name="/grade")
    assert good["score"] == good["max_score"]
    lesson = client.predict("manual-attention", hidden_file("manual-attention", "reference.py"), "ada",
                            api_name="/grade")
    assert lesson["score"] == lesson["max_score"] - 6 and "lesson-numbers" in lesson["extra_data"]["mistakes"]
