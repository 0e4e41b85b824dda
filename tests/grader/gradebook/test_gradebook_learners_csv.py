"""One line per learner, one column per exercise (grader.gradebook.csv_export.learners_to_csv)."""

from __future__ import annotations

import csv
import io

from grader.gradebook.csv_export import learners_to_csv
from grader.gradebook.model import BestScore


def best(label, learner_id, ex, score, max_score=12.0, last="2026-09-01T09:00:00+00:00"):
    return BestScore(label, ex, score, max_score, 1, 1, last, last, learner_id)


def test_columns_follow_the_exercise_order_and_empty_means_not_tried():
    rows = [best("Bo (guest)", "g:b", "causal-mask", 6),
            best("ada (guest)", "g:a", "manual-attention", 12),
            best("ada (guest)", "g:a", "causal-mask", 3, last="2026-09-01T10:00:00+00:00"),
            best("ada (guest)", "g:a2", "extra", 1, max_score=2),  # another ada: her own line
            best("=cmd()", None, "manual-attention", 1)]  # an old row: no id, label is the key
    text = learners_to_csv(rows, ["manual-attention", "multi-head-attention", "causal-mask"])
    lines = list(csv.reader(io.StringIO(text)))
    assert lines[0] == ["learner", "learner_id", "manual-attention (/12)", "causal-mask (/12)",
                        "extra (/2)", "total", "out_of", "last_submitted_at"]
    assert lines[1:] == [
        ["'=cmd()", "", "1", "", "", "1", "26", "2026-09-01T09:00:00+00:00"],  # never a formula
        ["ada (guest)", "g:a", "12", "3", "", "15", "26", "2026-09-01T10:00:00+00:00"],
        ["ada (guest)", "g:a2", "", "", "1", "1", "26", "2026-09-01T09:00:00+00:00"],
        ["Bo (guest)", "g:b", "", "6", "", "6", "26", "2026-09-01T09:00:00+00:00"]]
    assert learners_to_csv([], ["causal-mask"]).splitlines() == [
        "learner,learner_id,total,out_of,last_submitted_at"]
