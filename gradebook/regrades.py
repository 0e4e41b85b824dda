"""Regrading (issue 25, item 8): after an exercise's hidden tests change, its stored
submissions are graded again; each row then holds the new result, and ``regrades`` keeps the
old and the new score of every row that was regraded, so nothing of the first grading is lost.
Plain Python; the table is ``regrades`` in both backends.

The grading itself (the sandbox, the learner's own numbers, the grading line) is the app's:
webapp/services/regrade.py. Here: which rows to regrade, and writing a result back.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from gradebook.model import Submission, utc_now_iso

MAX_ROWS = 5000  # rows one regrade reads (a class of 30 sends a few hundred per exercise)


@dataclass(frozen=True)
class Regrade:
    """One row graded again: which, the old and new score and grader version, who, when."""

    submission_id: int
    exercise: str
    learner_id: str | None
    old_score: float
    old_max: float
    old_version: str
    new_score: float
    new_max: float
    new_version: str
    by: str
    at: str

    @property
    def changed(self) -> bool:
        return (self.old_score, self.old_max) != (self.new_score, self.new_max)


class _Book(Protocol):
    TESTS_PARAM: str

    def _query(self, sql: str, params: tuple = ()) -> list[tuple]: ...

    def _execute(self, sql: str, params: tuple = ()) -> None: ...

    def _select(self, where: str = "", params: tuple = (), order: str = "id",
                limit: int | None = None, light: bool = False) -> list[Submission]: ...


class Regrades:
    """The regrade methods of a Gradebook (mixed in: they use its ``_query``/``_execute``)."""

    def regradable(self: _Book, exercise: str, version: str,
                   limit: int = MAX_ROWS) -> list[Submission]:
        """The exercise's rows still graded by another grader ``version`` than ``version`` (a
        regrade stopped half-way goes on where it stopped; one after no change finds none)
        whose code is kept (a pruned row, code "", cannot be graded again), oldest first, at
        most ``limit`` (the newest, when there are more). Light rows: their code is read one
        at a time with ``get`` (5,000 rows of 100 kB were 565 MB read at once: red team)."""
        rows = self._select("exercise = ? AND code <> '' AND grader_version <> ?",
                            (exercise, version), order="id DESC", limit=int(limit), light=True)
        return rows[::-1]

    def apply_regrade(self: _Book, old: Submission, new: Submission, by: str) -> Regrade:
        """Write ``new``'s result (score, points, per-test results, status, mistakes, stage,
        grader version) into row ``old.id``; its code, learner and time stay. The old and
        new score are logged in ``regrades`` first."""
        if old.id is None:
            raise ValueError("only a stored row can be regraded")
        done = Regrade(int(old.id), old.exercise, old.learner_id, float(old.score),
                       float(old.max_score), old.grader_version, float(new.score),
                       float(new.max_score), new.grader_version, str(by)[:200], utc_now_iso())
        self._execute("INSERT INTO regrades (submission_id, exercise, learner_id, old_score, "
                      "old_max, old_version, new_score, new_max, new_version, by_whom, at) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                      (done.submission_id, done.exercise, done.learner_id, done.old_score,
                       done.old_max, done.old_version, done.new_score, done.new_max,
                       done.new_version, done.by, done.at))
        self._execute(f"UPDATE submissions SET score = ?, max_score = ?, tests = {self.TESTS_PARAM}, "
                      "status = ?, grader_version = ?, mistakes = ?, stage = ?, stage_zh = ? "
                      "WHERE id = ?",
                      (new.score, new.max_score, new.tests_json(), new.status, new.grader_version,
                       new.mistakes_text(), new.stage, new.stage_zh, int(old.id)))
        return done

    def regrades(self: _Book, learner_id: str | None = None, limit: int = 200) -> list[Regrade]:
        """The newest regrades (of one learner's rows), newest first."""
        where, params = ("WHERE learner_id = ?", (learner_id,)) if learner_id else ("", ())
        rows = self._query("SELECT submission_id, exercise, learner_id, old_score, old_max, "
                           "old_version, new_score, new_max, new_version, by_whom, at FROM "
                           f"regrades {where} ORDER BY id DESC LIMIT {int(limit)}", params)
        return [Regrade(int(s), ex, lid, float(os_), float(om), ov, float(ns), float(nm), nv, by,
                        at.isoformat() if isinstance(at, datetime) else str(at))
                for s, ex, lid, os_, om, ov, ns, nm, nv, by, at in rows]
