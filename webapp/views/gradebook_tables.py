"""Gradebook rows as tables for the Progress and instructor views.

Progress tables are looked up by a learner's opaque id (``g:``/``hf:``), never by the label a
learner typed: only the browser key, a recovery code or a sign-in leads to an id.
"""

from __future__ import annotations

import pandas as pd

from gradebook import Gradebook
from webapp.i18n import input_error, tr

HISTORY_LIMIT = 200  # newest rows shown in Progress; the gradebook keeps them all
# Progress columns, as catalogue keys "table.<name>" (headers in the page's language)
BEST_COLUMNS = ("exercise", "best", "max", "attempts", "best_id", "last_submitted")
HISTORY_COLUMNS = ("id", "exercise", "score", "max", "passed", "status", "submitted")


def _when(iso: str) -> str:
    """'2026-08-01 12:00:05 UTC' from the stored ISO text (seconds are enough on screen)."""
    return iso[:19].replace("T", " ") + " UTC" if iso else ""


def _owner(learner_id: str | None) -> str | None:
    """The id whose history may be shown: a guest's, a class-list member's or a signed-in
    learner's, nothing else (members were left out: their My progress stayed empty)."""
    if isinstance(learner_id, str) and learner_id.startswith(("g:", "hf:", "c:")):
        return learner_id
    return None


def best_frame(book: Gradebook, learner_id: str | None, lang: str = "en") -> pd.DataFrame:
    """One row per exercise: the learner's best score, attempts and when (by opaque id)."""
    cols = [tr(f"table.{c}", lang) for c in BEST_COLUMNS]
    if _owner(learner_id) is None:
        return pd.DataFrame([], columns=cols)
    rows = [(b.exercise, b.score, b.max_score, b.attempts, b.best_id, _when(b.last_at))
            for b in book.best_scores(learner_id=learner_id)]
    return pd.DataFrame(rows, columns=cols)


def history_frame(book: Gradebook, learner_id: str | None, lang: str = "en",
                  limit: int = HISTORY_LIMIT) -> pd.DataFrame:
    """The learner's submissions, newest first: id, exercise, score, tests passed, status, time."""
    cols = [tr(f"table.{c}", lang) for c in HISTORY_COLUMNS]
    if _owner(learner_id) is None:
        return pd.DataFrame([], columns=cols)
    rows = [(s.id, s.exercise, s.score, s.max_score, f"{s.passed_count()}/{len(s.tests)}",
             s.status, _when(s.submitted_at))
            for s in book.history(learner_id=learner_id, limit=limit)]
    return pd.DataFrame(rows, columns=cols)


def own_submission(book: Gradebook, learner_id: str | None, submission_id) -> tuple[str, str]:
    """(exercise, code) of one of the learner's own submissions; ValueError otherwise.

    Only the owner (same opaque id) may reload code: a classmate's solution never leaks here,
    whatever label they typed. The refusal is the same for someone else's row and a missing one.
    """
    if _owner(learner_id) is None:
        raise input_error("history_none")
    try:
        sub_id = int(str(submission_id).strip())
    except ValueError:
        shown = repr(submission_id)  # a typed text is quoted, as Python quotes it
        if len(shown) > 2 and shown[0] == shown[-1] == "'":
            raise input_error("submission_not_number_text", text=shown[1:-1]) from None
        raise input_error("submission_not_number", shown=shown) from None
    sub = book.get(sub_id)
    if sub is None or sub.learner_id != learner_id:
        raise input_error("submission_not_yours", number=sub_id)
    return sub.exercise, sub.code


def source_of(learner_id: str | None) -> str:
    """Who stands behind a row, from its id: a verified sign-in, one browser, or a bare label
    sent through the API, which anyone may use (every API caller of a label shares its id)."""
    if not learner_id:
        return "before ids (unverified)"
    if learner_id.startswith("hf:"):
        return "signed in (verified)"
    if learner_id.startswith("g:"):
        return "guest (one browser)"
    if learner_id.startswith("c:"):
        return "class list (joined by link)"
    if learner_id.startswith("api:"):
        return "API (unverified label)"
    return "unknown"


def everyone_frame(book: Gradebook) -> pd.DataFrame:
    """Best score of every learner on every exercise they tried (the instructor's table).

    ``learner id`` tells apart learners who chose the same label (empty on rows from before
    ids); ``source`` says how far the row's owner is verified (API labels are not at all).
    """
    cols = ["learner", "learner id", "source", "exercise", "best", "max", "attempts", "best #",
            "first best at", "last at"]
    rows = [(b.learner, b.learner_id or "", source_of(b.learner_id), b.exercise, b.score,
             b.max_score, b.attempts, b.best_id, _when(b.best_at), _when(b.last_at))
            for b in book.best_scores()]
    return pd.DataFrame(rows, columns=cols)


def access_frame(book: Gradebook, limit: int = 20) -> pd.DataFrame:
    """The newest instructor views and exports: when, who, what."""
    rows = [(_when(e.at), e.who, e.action, e.detail) for e in book.access_log(limit)]
    return pd.DataFrame(rows, columns=["when", "who", "action", "detail"])
