"""webapp.train.view: kept-run labels and scores in the page's language."""

from __future__ import annotations

import re

from transformer_lab.experiments import ExperimentConfig
from webapp.i18n import text_lab
from webapp.train.view import compare_table, kept_name


class _Run:
    task_name, model_name = "reverse", "transformer"
    config = ExperimentConfig(pe="sinusoidal", heads=2, d_model=16)
    summary = {"steps": 3, "seconds": 0.1, "stopped": "max_steps", "exact_acc": 0.5,
               "token_acc": 0.75, "parameters": 10}


class _Bahdanau(_Run):
    task_name, model_name = "sort", "bahdanau"


def test_kept_names_use_the_catalogues_task_and_pe_names():
    zh = kept_name(_Run(), 1, "zh")
    # issue 20: the layers are part of the name (two runs differing only in layers looked alike)
    assert zh == (f"{text_lab.ZH_LAB['task.reverse']} · pe={text_lab.ZH_LAB['pe.sinusoidal']} "
                  "· h=2 · d=16 · L=1 #1")
    assert "reverse" not in zh and "sinusoidal" not in zh
    assert kept_name(_Run(), 2, "en") == "reverse · pe=sinusoidal · h=2 · d=16 · L=1 #2"
    assert kept_name(_Bahdanau(), 3, "zh").startswith(text_lab.ZH_LAB["task.sort"] + " · Bahdanau")


def test_a_kept_run_stopped_early_says_so():
    class Stopped(_Run):
        summary = {**_Run.summary, "stopped": "stop_flag", "steps": 167}

    assert kept_name(Stopped(), 1, "en") == "reverse · pe=sinusoidal · h=2 · d=16 · L=1 · stopped at 167 #1"
    assert "在第 167 步停止" in kept_name(Stopped(), 1, "zh")


def test_the_compare_tables_score_is_in_the_pages_language():
    kept = {kept_name(_Run(), 1, lang): {"run": _Run()} for lang in ("zh",)}
    score = compare_table(kept, "zh").iloc[0, -1]
    assert score == "完全匹配 0.500 · 词元准确率 0.750"
    assert not re.search(r"[A-Za-z]", score)
    assert compare_table(kept, "en").iloc[0, -1] == "exact 0.500 · token 0.750"


def test_the_two_accuracies_text_fits_its_numbers():
    """Issue 20, item 4: beside 0.999 (teacher forcing) and 1.000 (free-running) the text said
    one early mistake derails the rest. Now it says so only when the free-running one is lower."""
    from webapp.train.view import accuracy_gap_text

    agree = accuracy_gap_text(0.999, 1.0, "en")
    assert "derails the rest:" not in agree and "they agree" in agree and "1.000" in agree
    assert "没有早期错误" in accuracy_gap_text(0.999, 1.0, "zh")
    apart = accuracy_gap_text(0.99, 0.62, "en")
    assert "one early mistake derails the rest: 0.620" in apart
    assert "带偏后面所有的词" in accuracy_gap_text(0.99, 0.62, "zh")
