"""A teacher's score in place of the graded best (issue 25, item 8), on SQLite and PostgreSQL:
set, replaced, cleared; it shows in best_scores (the graded best kept beside it) and in the
per-learner CSV, and never changes a stored submission."""

from __future__ import annotations

import csv
import io

import pytest

from gradebook.csv_export import learners_to_csv
from gradebook.model import Submission


def _row(learner_id, exercise, score, max_score=12.0, label="Ada (guest)"):
    return Submission(learner=label, exercise=exercise, code="x = 1\n", score=score,
                      max_score=max_score, learner_id=learner_id)


def test_a_teachers_score_replaces_the_graded_best_and_can_be_cleared(book):
    book.record(_row("g:ada", "causal-mask", 6))
    book.record(_row("g:ada", "causal-mask", 9))
    book.record(_row("g:bob", "causal-mask", 3, label="Bob (guest)"))
    set_ = book.set_score("g:ada", "causal-mask", 11.5, 12, "  Right idea;\x00 one slip.  ", "hf:t")
    assert (set_.score, set_.max_score, set_.note) == (11.5, 12.0, "Right idea; one slip.")
    best = {(b.learner_id, b.exercise): b for b in book.best_scores()}
    ada, bob = best[("g:ada", "causal-mask")], best[("g:bob", "causal-mask")]
    assert (ada.score, ada.graded, ada.note, ada.attempts) == (11.5, 9.0, "Right idea; one slip.", 2)
    assert (bob.score, bob.graded) == (3.0, None)
    assert [b.score for b in book.best_scores(learner_id="g:ada")] == [11.5]
    book.set_score("g:ada", "causal-mask", 12, 12, "", "hf:t")  # replaced, not added
    assert list(book.score_overrides()) == [("g:ada", "causal-mask")]
    assert book.score_overrides("g:ada")[("g:ada", "causal-mask")].score == 12.0
    assert sorted(s.score for s in book.history(learner_id="g:ada")) == [6.0, 9.0]  # rows unchanged
    book.clear_score("g:ada", "causal-mask")
    again = book.best_scores(learner_id="g:ada")[0]
    assert (again.score, again.graded) == (9.0, None) and book.score_overrides() == {}


def test_the_per_learner_csv_reads_the_teachers_score(book):
    book.record(_row("g:ada", "causal-mask", 6))
    book.set_score("g:ada", "causal-mask", 10, 12, "", "hf:t")
    lines = list(csv.reader(io.StringIO(learners_to_csv(book.best_scores(), ["causal-mask"])
                                        .removeprefix("\ufeff"))))
    assert lines[1][3] == "10" and lines[1][4] == "10"  # the exercise's column and the total


@pytest.mark.parametrize("score, top", [(-1, 12), (13, 12), (float("nan"), 12), ("x", 12),
                                         (1, 0), (None, 12), (float("inf"), 12)])
def test_a_score_outside_the_exercises_points_is_refused(book, score, top):
    with pytest.raises(ValueError):
        book.set_score("g:ada", "causal-mask", score, top, "", "t")
    assert book.score_overrides() == {}


def test_a_score_needs_a_learner_and_an_exercise_and_a_short_note(book):
    for learner, exercise, note in (("", "causal-mask", ""), ("g:ada", " ", ""),
                                    ("g:ada", "causal-mask", "x" * 501)):
        with pytest.raises(ValueError):
            book.set_score(learner, exercise, 1, 12, note, "t")
    assert book.score_overrides() == {}
