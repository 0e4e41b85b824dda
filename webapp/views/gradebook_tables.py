"""Gradebook rows as tables for the Progress and instructor views, and who may see the instructor's.

Progress tables are looked up by a learner's opaque id (``g:``/``hf:``), never by the label a
learner typed: only the browser key, a recovery code or a sign-in leads to an id.
"""

from __future__ import annotations

import atexit
import hashlib
import hmac
import os
import secrets
import shutil
import tempfile
import threading
import time
from pathlib import Path

import pandas as pd

from grader.gradebook import Gradebook

PASSWORD_ENV = "LAB_INSTRUCTOR_PASSWORD"
INSTRUCTORS_ENV = "LAB_INSTRUCTORS"  # Hugging Face usernames, separated by commas or spaces
HISTORY_LIMIT = 200  # newest rows shown in Progress; the gradebook keeps them all


def _when(iso: str) -> str:
    """'2026-08-01 12:00:05 UTC' from the stored ISO text (seconds are enough on screen)."""
    return iso[:19].replace("T", " ") + " UTC" if iso else ""


def _owner(learner_id: str | None) -> str | None:
    """The id whose history may be shown: a guest's or a signed-in learner's, nothing else."""
    if isinstance(learner_id, str) and learner_id.startswith(("g:", "hf:")):
        return learner_id
    return None


def best_frame(book: Gradebook, learner_id: str | None, lang: str = "en") -> pd.DataFrame:
    """One row per exercise: the learner's best score, attempts and when (by opaque id)."""
    zh = lang == "zh"
    cols = (["练习", "最高分", "满分", "提交次数", "最佳提交 #", "最近提交"] if zh
            else ["exercise", "best", "max", "attempts", "best #", "last submitted"])  # fmt: skip
    if _owner(learner_id) is None:
        return pd.DataFrame([], columns=cols)
    rows = [(b.exercise, b.score, b.max_score, b.attempts, b.best_id, _when(b.last_at))
            for b in book.best_scores(learner_id=learner_id)]
    return pd.DataFrame(rows, columns=cols)


def history_frame(book: Gradebook, learner_id: str | None, lang: str = "en",
                  limit: int = HISTORY_LIMIT) -> pd.DataFrame:
    """The learner's submissions, newest first: id, exercise, score, tests passed, status, time."""
    zh = lang == "zh"
    cols = (["#", "练习", "得分", "满分", "通过测试", "状态", "提交时间"] if zh
            else ["#", "exercise", "score", "max", "tests passed", "status", "submitted"])  # fmt: skip
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
        raise ValueError("this browser has no history yet: reload the page, or sign in")
    try:
        sub_id = int(str(submission_id).strip())
    except ValueError:
        raise ValueError(f"choose a submission number from your history, not {submission_id!r}") from None
    sub = book.get(sub_id)
    if sub is None or sub.learner_id != learner_id:
        raise ValueError(f"submission #{sub_id} is not in your history")
    return sub.exercise, sub.code


MIN_PASSWORD_CHARS = 12  # with 5 tries per address per 10 minutes, guessing must be hopeless
TRUST_DAYS = float(os.environ.get("LAB_INSTRUCTOR_TRUST_DAYS", "90"))


def password_set() -> bool:
    """Whether LAB_INSTRUCTOR_PASSWORD is set at all (strong or not)."""
    return bool(os.environ.get(PASSWORD_ENV, ""))


def password_weak() -> str | None:
    """Why LAB_INSTRUCTOR_PASSWORD is too weak to open the instructor view, or None."""
    expected = os.environ.get(PASSWORD_ENV, "")
    if expected and len(expected) < MIN_PASSWORD_CHARS:
        return (f"{PASSWORD_ENV} has {len(expected)} characters; use at least "
                f"{MIN_PASSWORD_CHARS} (for example four random words). The instructor view "
                "stays closed until it is changed.")
    return None


def trust_hashes(address: str | None, browser_key: str | None) -> dict[str, str]:
    """Keyed hashes naming a client that may log in as instructor: its address and, when it
    sent a valid one, its browser key. Keyed by the password, so the stored hashes reveal no
    address, and a new password forgets every earlier login."""
    from grader.gradebook import identity as ids

    secret = hashlib.sha256(os.environ.get(PASSWORD_ENV, "").encode("utf-8", "replace")).digest()
    out = {}
    if address:
        out["address"] = hmac.new(secret, f"address\x00{address}".encode("utf-8", "replace"),
                                  hashlib.sha256).hexdigest()  # fmt: skip
    if ids.valid_browser_key(browser_key):
        out["browser"] = hmac.new(secret, f"browser\x00{browser_key}".encode(),
                                  hashlib.sha256).hexdigest()  # fmt: skip
    return out


def password_ok(typed: str | None) -> bool:
    """Constant-time comparison with LAB_INSTRUCTOR_PASSWORD; always False when it is unset."""
    expected = os.environ.get(PASSWORD_ENV, "")
    if not expected or password_weak() or not isinstance(typed, str):
        return False
    return hmac.compare_digest(typed.encode("utf-8", "surrogatepass"),
                               expected.encode("utf-8", "surrogatepass"))


def instructors() -> frozenset[str]:
    """LAB_INSTRUCTORS as case-folded HF usernames (HF treats usernames case-insensitively)."""
    raw = os.environ.get(INSTRUCTORS_ENV, "").replace(",", " ")
    return frozenset(name.strip().casefold() for name in raw.split() if name.strip())


def is_instructor(username: str | None) -> bool:
    """Whether a *verified* HF username is on LAB_INSTRUCTORS."""
    return bool(username) and str(username).casefold() in instructors()


def source_of(learner_id: str | None) -> str:
    """Who stands behind a row, from its id: a verified sign-in, one browser, or a bare label
    sent through the API, which anyone may use (every API caller of a label shares its id)."""
    if not learner_id:
        return "before ids (unverified)"
    if learner_id.startswith("hf:"):
        return "signed in (verified)"
    if learner_id.startswith("g:"):
        return "guest (one browser)"
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


EXPORT_PREFIX = "lab-gradebook-export-"  # every export file's name starts so (and Gradio's copy)
EXPORT_TTL_S = float(os.environ.get("LAB_EXPORT_TTL_S", "300"))  # an export lives 5 minutes
_EXPORTS: dict[str, Path] = {}  # the one private folder of this process
_EXPORTS_LOCK = threading.Lock()


def export_folder() -> Path:
    """This process's private export folder (mode 0700), made once and removed at exit."""
    with _EXPORTS_LOCK:
        folder = _EXPORTS.get("dir")
        if folder is None or not folder.is_dir():
            folder = Path(tempfile.mkdtemp(prefix="lab-exports-"))  # 0700, unguessable name
            _EXPORTS["dir"] = folder
            atexit.register(shutil.rmtree, folder, True)
            atexit.register(remove_exports, 0.0)
        return folder


def _gradio_copies() -> list[Path]:
    """Copies of our exports in Gradio's file cache (it copies every file it serves)."""
    try:
        from gradio.utils import get_upload_folder
    except ImportError:  # pragma: no cover - gradio is always there in the app
        return []
    return list(Path(get_upload_folder()).glob(f"*/{EXPORT_PREFIX}*.csv"))


def remove_exports(older_than_s: float | None = None) -> int:
    """Delete exports (ours and Gradio's copies) older than ``older_than_s`` (default
    ``EXPORT_TTL_S``); returns how many went."""
    older_than_s = EXPORT_TTL_S if older_than_s is None else older_than_s
    now, gone = time.time(), 0
    folder = _EXPORTS.get("dir")
    paths = list(folder.glob(f"{EXPORT_PREFIX}*.csv")) if folder is not None else []
    for path in paths + _gradio_copies():
        try:
            if now - path.stat().st_mtime >= older_than_s:
                path.unlink()
                gone += 1
                if path.parent != folder:
                    path.parent.rmdir()  # Gradio's per-file folder, when now empty
        except OSError:
            continue  # already gone, or the folder holds something else
    return gone


def csv_file(book: Gradebook, include_code: bool = False) -> str:
    """Every submission as CSV (mode 0600) in this process's private folder; returns its path.

    Exports contain every learner's code: older ones (and Gradio's copies of them) are deleted
    at every export, by a timer ``EXPORT_TTL_S`` after each, and at exit.
    """
    remove_exports()
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    path = export_folder() / f"{EXPORT_PREFIX}{stamp}-{secrets.token_hex(4)}.csv"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
        out.write(book.to_csv(include_code=include_code))
    timer = threading.Timer(EXPORT_TTL_S + 1.0, remove_exports)
    timer.daemon = True
    timer.start()
    return str(path)
