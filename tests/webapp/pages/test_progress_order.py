"""Issue 26, item 11: My progress listed the best scores alphabetically (exercises 1, 3, 2...)
with no overall total. Now they come in the exercises' order, and the status says the total."""

from __future__ import annotations

import pytest
from lab_support import LAB

from gradebook import Submission, open_gradebook
from gradebook import identity as ids
from grader.exercises import all_exercises


@pytest.fixture
def book(tmp_path):

    gb = open_gradebook(f"sqlite:///{tmp_path / 'gb.sqlite3'}")
    old = LAB.submitter.use_gradebook(gb)
    yield gb
    LAB.submitter.use_gradebook(old)
    gb.close()


@pytest.mark.parametrize("lang,total", [("en", "Total: 14 / 36"), ("zh", "总分：14 / 36")])
def test_best_scores_in_exercise_order_with_a_total(book, lang, total):
    from webapp.pages import progress

    key = ids.new_browser_key()
    me = ids.guest_id(key)
    for ex, score in (("permutation-invariance", 2), ("manual-attention", 12),
                      ("causal-mask", 0)):
        book.record(Submission(learner="Ada (guest)", learner_id=me, exercise=ex,
                               code="x = 1\n", score=score, max_score=12, tests=[]))
    best, _history = progress.tables(LAB, key, None, lang)
    titles = list(best.iloc[:, 0])
    assert titles[0].startswith("1.") and titles[1].startswith("2.") and titles[2].startswith("5.")
    line = progress.total_line(best, lang)
    # out of every exercise on disk (a hard-coded 8 broke with each new exercise; two added
    # in parallel would both have written 9)
    n = len(all_exercises())
    assert total in line and (f"3 of {n}" in line if lang == "en" else "已尝试 3 道" in line)
    assert ("1 at full marks" in line) if lang == "en" else ("1 道得满分" in line)
