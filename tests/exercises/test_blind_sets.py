"""The blind sets in docs/bench/ (learner submissions written from the statements alone, by
people who never saw hidden/, grader/ or tests/), kept as regressions once measured: every
correct one gets full marks and every wrong one loses points. Which cause the feedback names
is judged by hand (docs/bench/*-blind-diagnosis.md); here only that no named mistake is one
of a file marked correct."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "docs" / "bench"
SETS = sorted(p for p in BENCH.glob("blind-*") if (p / "manifest.json").exists())
# Wrong on inputs the learner can already see only: a correct function on every hidden input
# (docs/bench/2026-12-02-blind-diagnosis.md, "masked-softmax__14 (cheat) keeps full marks").
HONEST_FULL = {"masked-softmax__14_hardcoded-examples.py"}


def _entries():
    for folder in SETS:
        for entry in json.loads((folder / "manifest.json").read_text(encoding="utf-8")):
            yield pytest.param(folder, entry, id=f"{folder.name}/{entry['file']}")


@pytest.mark.parametrize(("folder", "entry"), list(_entries()))
def test_blind_submission_scores_as_its_manifest_says(grader, folder, entry):
    report = grader.grade(entry["exercise"], (folder / entry["file"]).read_text(encoding="utf-8"))
    if entry["correct"]:
        assert report.full_marks and report.mistakes() == [], [t.message["en"] for t in report.tests if not t.passed]
    elif entry["file"] not in HONEST_FULL:
        assert not report.full_marks, entry["mistake"]


def test_both_blind_sets_are_here():
    assert len(SETS) >= 2 and sum(1 for _ in _entries()) >= 200
