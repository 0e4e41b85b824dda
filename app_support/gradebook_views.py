"""Gradebook rows as tables for the Progress and instructor views, and the instructor password check."""

from __future__ import annotations

import hmac
import os
import tempfile
from pathlib import Path

import pandas as pd

from grader.gradebook import ANONYMOUS, Gradebook

PASSWORD_ENV = "LAB_INSTRUCTOR_PASSWORD"
HISTORY_LIMIT = 200  # newest rows shown in Progress; the gradebook keeps them all


def _when(iso: str) -> str:
    """'2026-08-01 12:00:05 UTC' from the stored ISO text (seconds are enough on screen)."""
    return iso[:19].replace("T", " ") + " UTC" if iso else ""


def best_frame(book: Gradebook, learner: str | None, lang: str = "en") -> pd.DataFrame:
    """One row per exercise: the learner's best score, attempts and when; empty for anonymous."""
    zh = lang == "zh"
    cols = (["练习", "最高分", "满分", "提交次数", "最佳提交 #", "最近提交"] if zh
            else ["exercise", "best", "max", "attempts", "best #", "last submitted"])  # fmt: skip
    if not learner or learner == ANONYMOUS:
        return pd.DataFrame([], columns=cols)
    rows = [(b.exercise, b.score, b.max_score, b.attempts, b.best_id, _when(b.last_at))
            for b in book.best_scores(learner)]
    return pd.DataFrame(rows, columns=cols)


def history_frame(book: Gradebook, learner: str | None, lang: str = "en",
                  limit: int = HISTORY_LIMIT) -> pd.DataFrame:
    """The learner's submissions, newest first: id, exercise, score, tests passed, status, time."""
    zh = lang == "zh"
    cols = (["#", "练习", "得分", "满分", "通过测试", "状态", "提交时间"] if zh
            else ["#", "exercise", "score", "max", "tests passed", "status", "submitted"])  # fmt: skip
    if not learner or learner == ANONYMOUS:
        return pd.DataFrame([], columns=cols)
    rows = [(s.id, s.exercise, s.score, s.max_score, f"{s.passed_count()}/{len(s.tests)}",
             s.status, _when(s.submitted_at)) for s in book.history(learner, limit=limit)]
    return pd.DataFrame(rows, columns=cols)


def own_submission(book: Gradebook, learner: str | None, submission_id) -> tuple[str, str]:
    """(exercise, code) of one of the learner's own submissions; ValueError otherwise.

    Only the owner may reload code: another learner's solution must never leak through here.
    """
    if not learner or learner == ANONYMOUS:
        raise ValueError("sign in or enter a name first: anonymous submissions have no history")
    try:
        sub_id = int(str(submission_id).strip())
    except ValueError:
        raise ValueError(f"choose a submission number from your history, not {submission_id!r}") from None
    sub = book.get(sub_id)
    if sub is None or sub.learner != learner:
        raise ValueError(f"submission #{sub_id} is not in your history")
    return sub.exercise, sub.code


def password_set() -> bool:
    """Whether the instructor view is enabled (a non-empty LAB_INSTRUCTOR_PASSWORD)."""
    return bool(os.environ.get(PASSWORD_ENV, ""))


def password_ok(typed: str | None) -> bool:
    """Constant-time comparison with LAB_INSTRUCTOR_PASSWORD; always False when it is unset."""
    expected = os.environ.get(PASSWORD_ENV, "")
    if not expected or not isinstance(typed, str):
        return False
    return hmac.compare_digest(typed.encode("utf-8"), expected.encode("utf-8"))


def everyone_frame(book: Gradebook) -> pd.DataFrame:
    """Best score of every learner on every exercise they tried (the instructor's table)."""
    cols = ["learner", "exercise", "best", "max", "attempts", "best #", "first best at", "last at"]
    rows = [(b.learner, b.exercise, b.score, b.max_score, b.attempts, b.best_id, _when(b.best_at),
             _when(b.last_at)) for b in book.best_scores()]  # fmt: skip
    return pd.DataFrame(rows, columns=cols)


def csv_file(book: Gradebook, include_code: bool = False) -> str:
    """Every submission as CSV in a fresh temp file (for a download); returns its path."""
    folder = Path(tempfile.mkdtemp(prefix="lab-grades-"))
    path = folder / "gradebook.csv"
    path.write_text(book.to_csv(include_code=include_code), encoding="utf-8")
    return str(path)
