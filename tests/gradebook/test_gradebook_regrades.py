"""Regrading stored rows (issue 25, item 8), on SQLite and PostgreSQL: the row takes the new
result, its code, learner and time stay, and ``regrades`` keeps the old and the new score."""

from __future__ import annotations

from gradebook.model import Submission


def _row(score, code="x = 1\n", learner_id="g:ada", exercise="causal-mask"):
    return Submission(learner="Ada (guest)", exercise=exercise, code=code, score=score,
                      max_score=12, learner_id=learner_id, grader_version="v1",
                      tests=[{"name": "weights", "passed": score >= 12, "score": score,
                              "max_score": 12, "mistake": None if score >= 12 else "no-scale"}])


def test_a_regrade_writes_the_new_result_and_keeps_the_old_score(book):
    first = book.record(_row(6))
    book.record(_row(9, code="y = 2\n"))
    book.record(_row(3, exercise="manual-attention"))
    rows = book.regradable("causal-mask", "v2")
    assert [r.id for r in rows] == [first, first + 1] and rows[0].code == ""  # light: read with get
    rows = [book.get(r.id) for r in rows]
    new = Submission(learner="Ada (guest)", exercise="causal-mask", code="x = 1\n", score=12,
                     max_score=13, grader_version="v2",
                     tests=[{"name": "weights", "passed": True, "score": 12, "max_score": 13}])
    done = book.apply_regrade(rows[0], new, "hf:teacher")
    assert done.changed and (done.old_score, done.new_score, done.new_max) == (6.0, 12.0, 13.0)
    after = book.get(first)
    assert (after.score, after.max_score, after.grader_version, after.code) == (12.0, 13.0, "v2", "x = 1\n")
    assert after.submitted_at == rows[0].submitted_at and after.learner_id == "g:ada"
    assert after.tests[0]["max_score"] == 13 and after.mistakes == []
    log = book.regrades("g:ada")
    assert [(r.submission_id, r.old_score, r.new_score, r.old_version, r.new_version, r.by)
            for r in log] == [(first, 6.0, 12.0, "v1", "v2", "hf:teacher")]
    assert book.regrades("g:bob") == [] and len(book.regrades()) == 1
    assert book.best_scores(learner_id="g:ada")[0].score == 12.0  # the class view reads it
    assert [r.id for r in book.regradable("causal-mask", "v2")] == [first + 1]  # done: v2 now


def test_only_kept_rows_of_an_older_version_are_regradable_and_the_newest_when_capped(book):
    ids = [book.record(_row(i)) for i in range(5)]
    book._execute("UPDATE submissions SET code = '' WHERE id = ?", (ids[0],))  # pruned
    assert [r.id for r in book.regradable("causal-mask", "v2")] == ids[1:]
    assert [r.id for r in book.regradable("causal-mask", "v2", limit=2)] == ids[3:]
    assert book.regradable("causal-mask", "v1") == []  # already graded by that version
