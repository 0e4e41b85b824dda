"""One line per learner, one column per exercise (gradebook.csv_export.learners_to_csv)."""

from __future__ import annotations

import csv
import io

from gradebook.csv_export import learners_to_csv, name_tag
from gradebook.model import BestScore


def best(label, learner_id, ex, score, max_score=12.0, last="2026-09-01T09:00:00+00:00"):
    return BestScore(label, ex, score, max_score, 1, 1, last, last, learner_id)


def test_columns_follow_the_exercise_order_and_empty_means_not_tried():
    rows = [best("Bo (guest)", "g:b", "causal-mask", 6),
            best("ada (guest)", "g:a", "manual-attention", 12),
            best("ada (guest)", "g:a", "causal-mask", 3, last="2026-09-01T10:00:00+00:00"),
            best("ada (guest)", "g:a2", "extra", 1, max_score=2),  # another ada: her own line
            best("=cmd()", None, "manual-attention", 1)]  # an old row: no id, label is the key
    text = learners_to_csv(rows, ["manual-attention", "multi-head-attention", "causal-mask"])
    assert text.startswith("\ufeff")  # Excel reads Chinese names only with the mark
    lines = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))
    assert lines[0] == ["learner", "learner_id", "same_name_tag", "manual-attention (/12)",
                        "causal-mask (/12)", "extra (/2)", "total", "out_of_tried",
                        "last_submitted_at"]
    tag_a, tag_a2 = name_tag("id:g:a"), name_tag("id:g:a2")  # as the class view's grid shows them
    assert lines[1:] == [
        ["'=cmd()", "", "", "1", "", "", "1", "26", "2026-09-01T09:00:00+00:00"],  # never a formula
        ["ada (guest)", "g:a", tag_a, "12", "3", "", "15", "26", "2026-09-01T10:00:00+00:00"],
        ["ada (guest)", "g:a2", tag_a2, "", "", "1", "1", "26", "2026-09-01T09:00:00+00:00"],
        ["Bo (guest)", "g:b", "", "", "6", "", "6", "26", "2026-09-01T09:00:00+00:00"]]
    assert learners_to_csv([], ["causal-mask"]).removeprefix("\ufeff").splitlines() == [
        "learner,learner_id,same_name_tag,total,out_of_tried,last_submitted_at"]


def test_the_tag_is_the_class_views():
    from webapp.services.class_summary import Learner
    from webapp.views.class_grid import clash_tags

    twins = [Learner("id:g:a", "ada (guest)", "g:a"), Learner("id:g:a2", "ada (guest)", "g:a2")]
    assert clash_tags(twins) == {"id:g:a": name_tag("id:g:a"), "id:g:a2": name_tag("id:g:a2")}
