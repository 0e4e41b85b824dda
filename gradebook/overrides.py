"""A teacher's score for one learner on one exercise (issue 25, item 8): it replaces the graded
best in the class view, its totals, the per-learner CSV and the learner's own My progress,
while the graded submissions stay as they were. Plain Python; the table is
``score_overrides`` in both backends, one row per (learner id, exercise).

Only the instructor sets one (the page checks the sign-in before every write and logs it).
The score lies between 0 and the exercise's points; a short note may say why, and the learner
reads it beside the score.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from gradebook.comments import clean_comment

MAX_NOTE = 500


@dataclass(frozen=True)
class Override:
    """A score set by the teacher: for whom, on which exercise, out of what, why, who, when."""

    learner_id: str
    exercise: str
    score: float
    max_score: float
    note: str
    by: str
    at: str


class _Book(Protocol):
    def _query(self, sql: str, params: tuple = ()) -> list[tuple]: ...

    def _execute(self, sql: str, params: tuple = ()) -> None: ...


def _points(value: object, name: str) -> float:
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number") from None
    if not math.isfinite(number) or number < 0:
        raise ValueError(f"{name} must be a number of at least 0")
    return number


class Overrides:
    """The score-override methods of a Gradebook (mixed in: they use its ``_query``/``_execute``)."""

    def set_score(self: _Book, learner_id: str, exercise: str, score: float, max_score: float,
                  note: str, by: str) -> Override:
        """Set (or replace) the teacher's score for ``learner_id`` on ``exercise``: 0 <= score
        <= max_score, max_score > 0; ``note`` may be empty. ValueError otherwise."""
        if not isinstance(learner_id, str) or not learner_id:
            raise ValueError("a score goes to a learner id")
        if not isinstance(exercise, str) or not exercise.strip():
            raise ValueError("a score is for one exercise")
        top = _points(max_score, "the exercise's points")
        points = _points(score, "the score")
        if top <= 0 or points > top:
            raise ValueError(f"the score must lie between 0 and {top:g}")
        said = clean_comment(note) if isinstance(note, str) and note.strip() else ""
        if len(said) > MAX_NOTE:
            raise ValueError(f"a note holds at most {MAX_NOTE} characters")
        from gradebook.model import utc_now_iso

        at = utc_now_iso()
        self._execute("INSERT INTO score_overrides (learner_id, exercise, score, max_score, note, "
                      "by_whom, at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (learner_id, exercise) "
                      "DO UPDATE SET score = excluded.score, max_score = excluded.max_score, "
                      "note = excluded.note, by_whom = excluded.by_whom, at = excluded.at",
                      (learner_id, exercise[:100], points, top, said, str(by)[:200], at))
        return Override(learner_id, exercise[:100], points, top, said, str(by)[:200], at)

    def clear_score(self: _Book, learner_id: str, exercise: str) -> None:
        """Remove the teacher's score: the graded best shows again."""
        self._execute("DELETE FROM score_overrides WHERE learner_id = ? AND exercise = ?",
                      (str(learner_id), str(exercise)))

    def score_overrides(self: _Book, learner_id: str | None = None) -> dict[tuple[str, str], Override]:
        """Every teacher's score, or one learner's, by (learner id, exercise)."""
        where, params = ("WHERE learner_id = ?", (learner_id,)) if learner_id else ("", ())
        rows = self._query("SELECT learner_id, exercise, score, max_score, note, by_whom, at "
                           f"FROM score_overrides {where}", params)
        return {(lid, ex): Override(lid, ex, float(s), float(m), note, by,
                                    at.isoformat() if isinstance(at, datetime) else str(at))
                for lid, ex, s, m, note, by, at in rows}
