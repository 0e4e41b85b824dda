"""Regrading an exercise's stored submissions (issue 25, item 8): every row with its code kept
is graded again as Submit grades it (the learner's own numbers), the rows take the new result,
the old scores are kept, and a class that submits meanwhile keeps every grading slot."""

from __future__ import annotations

import threading
import time

import pytest

from gradebook import Submission, open_gradebook
from grader.report import Report
from grader.report import TestResult as Result
from webapp.services import regrade, submissions
from webapp.serving.settings import ServingSettings
from webapp.serving.who import ClientKey
from webapp.serving.wing import Serving

EX = "causal-mask"


def _report(exercise_id, points):
    return Report(exercise_id, [Result("weights", points, 12.0, points >= 12, {"en": "", "zh": ""})])


@pytest.fixture
def book(tmp_path):
    with open_gradebook(f"sqlite:///{tmp_path / 'gb.sqlite3'}") as gb:
        yield gb


def _stored(book, learner_id, score, code="x = 1\n", exercise=EX):
    return book.record(Submission(learner=f"{learner_id} (guest)", exercise=exercise, code=code,
                                  score=score, max_score=12, learner_id=learner_id,
                                  grader_version="v1"))


def test_every_kept_row_is_graded_again_with_the_learners_own_numbers(book):
    seen = []

    def graded(exercise_id, code, label, key=None):
        seen.append((code, label, key))
        return _report(exercise_id, 12.0 if "fixed" in code else 3.0)

    sub = submissions.Submitter(Serving.local(ServingSettings()), book, graded)
    a1 = _stored(book, "g:ada", 6, "ada 1")
    _stored(book, "g:ada", 9, "ada fixed")
    _stored(book, "g:bob", 3, "bob 1")
    _stored(book, "g:ada", 2, "other", exercise="manual-attention")  # another exercise
    book._execute("UPDATE submissions SET code = '' WHERE id = ?", (a1,))  # pruned: not regradable
    steps = []
    done = regrade.regrade(EX, "hf:teacher", sub, progress=lambda d, t: steps.append((d, t)))
    assert (done.rows, done.regraded, done.changed, done.failed) == (2, 2, 1, 0)
    assert steps == [(1, 2), (2, 2)]
    assert [(c, k) for c, _, k in seen] == [("ada fixed", sub.numbers_key("g:ada")),
                                            ("bob 1", sub.numbers_key("g:bob"))]
    best = {b.learner_id: b.score for b in book.best_scores() if b.exercise == EX}
    assert best == {"g:ada": 12.0, "g:bob": 3.0} and done.learners_changed == ["g:ada"]
    assert [(r.old_score, r.new_score) for r in book.regrades("g:ada")] == [(9.0, 12.0)]
    assert book.get(a1).score == 6.0  # the pruned row keeps its first result


def test_a_row_the_grader_fails_on_keeps_its_first_result(book):
    def boom(exercise_id, code, label, key=None):
        if "bad" in code:
            raise RuntimeError("sandbox fell over")
        return _report(exercise_id, 12.0)

    sub = submissions.Submitter(Serving.local(ServingSettings()), book, boom)
    bad, good = _stored(book, "g:ada", 6, "bad"), _stored(book, "g:bob", 6, "good")
    done = regrade.regrade(EX, "t", sub)
    assert (done.regraded, done.failed) == (1, 1)
    assert book.get(bad).score == 6.0 and book.get(good).score == 12.0


def test_a_regrade_waits_while_a_learner_is_in_line_and_one_runs_at_a_time(book):
    started = threading.Event()
    release = threading.Event()

    def slow(exercise_id, code, label, key=None):
        started.set()
        release.wait(10)
        return _report(exercise_id, 12.0)

    serving = Serving.local(ServingSettings(grading_slots=1))
    sub = submissions.Submitter(serving, book, slow)
    _stored(book, "g:ada", 6)
    # A learner's submission holds the one slot, a second waits: the regrade takes no place.
    first = serving.grading.admit(ClientKey("s1", "198.51.100.1", "id:g:x"))
    first.wait_turn()
    waiting = serving.grading.admit(ClientKey("s2", "198.51.100.1", "id:g:y"))
    runner = threading.Thread(target=regrade.regrade, args=(EX, "t", sub), daemon=True)
    runner.start()
    time.sleep(1.0)
    assert not started.is_set() and serving.grading.snapshot(address="regrade")["waiting"] == 0
    with pytest.raises(regrade.Busy):
        regrade.regrade(EX, "t", sub)  # one at a time
    first.release()
    waiting.wait_turn()
    waiting.release()  # the line is empty: now the regrade takes its turn
    assert started.wait(5)
    release.set()
    runner.join(10)
    assert not runner.is_alive() and book.best_scores()[0].score == 12.0


def test_a_regrade_goes_on_where_it_stopped_and_finds_nothing_after_no_change(book):
    graded = []

    def grade(ex, code, label, key=None):
        graded.append(code)
        return _report(ex, 12.0)

    sub = submissions.Submitter(Serving.local(ServingSettings()), book, grade)
    for n in range(4):
        _stored(book, f"g:{n}", 6)
    # the clock passes the deadline once two rows are graded
    first = regrade.regrade(EX, "t", sub, max_seconds=10.0,
                            clock=lambda: 0.0 if len(graded) < 2 else 99.0)
    assert (first.rows, first.regraded, first.left) == (4, 2, 2)
    rest = regrade.regrade(EX, "t", sub)
    assert (rest.rows, rest.regraded, rest.left) == (2, 2, 0)
    assert regrade.regrade(EX, "t", sub).rows == 0  # every row carries the current version
    assert regrade.stop() is False  # nothing running


def test_a_learners_rows_that_keep_timing_out_are_left_and_the_teacher_can_stop(book):
    """Red team, 2026-12-07: rows that pass when submitted but loop once regraded each held a
    regrade for the full time limit (12 rows: 122 s; at the row cap, hours), with no way out."""
    graded = []

    def looping(exercise_id, code, label, key=None):
        graded.append(code)
        if code.startswith("bomb"):
            return Report(exercise_id, [Result("weights", 0.0, 12.0, False, {"en": "", "zh": ""})],
                          status="timeout")
        if code == "last":
            regrade.stop()  # the teacher presses Stop while this row is graded
        return _report(exercise_id, 12.0)

    sub = submissions.Submitter(Serving.local(ServingSettings()), book, looping)
    for i in range(5):
        _stored(book, "api:mallory", 12, f"bomb {i}")
    _stored(book, "g:ada", 6, "ada")
    _stored(book, "g:bob", 6, "last")
    _stored(book, "g:cy", 6, "after the stop")
    done = regrade.regrade(EX, "t", sub)
    assert graded == ["bomb 0", "bomb 1", "ada", "last"]  # two time-outs, then mallory is skipped
    assert (done.regraded, done.left) == (4, 4)  # three bombs and cy are left for the next one
    assert regrade.stop() is False  # and the lock is free again
