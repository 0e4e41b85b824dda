"""SQLite gradebook: one file in WAL mode, fsynced on every commit, shared by threads under a lock."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from grader.gradebook.model import GradebookError, Submission
from grader.gradebook.store import Gradebook

SCHEMA = """
CREATE TABLE IF NOT EXISTS submissions (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    learner        TEXT    NOT NULL,
    exercise       TEXT    NOT NULL,
    code           TEXT    NOT NULL,
    score          REAL    NOT NULL,
    max_score      REAL    NOT NULL,
    tests          TEXT    NOT NULL,
    status         TEXT    NOT NULL,
    submitted_at   TEXT    NOT NULL,
    grader_version TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS submissions_learner ON submissions (learner, exercise);
"""


class SQLiteGradebook(Gradebook):
    """A gradebook in one SQLite file.

    WAL lets other processes (the CLI, a second app) read while the app writes;
    ``synchronous=FULL`` fsyncs the WAL at every commit, so an acknowledged row survives a
    crash of the process and of the machine. One connection serves all threads under a
    lock: gradebook calls take milliseconds next to grading, and SQLite writes one at a time
    anyway. AUTOINCREMENT keeps ids increasing even after rows are deleted by hand.
    """

    backend = "sqlite"

    def __init__(self, path: str | Path, busy_timeout_s: float = 10.0) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # isolation_level=None: autocommit; every statement below is its own transaction.
            self._conn = sqlite3.connect(self.path, timeout=busy_timeout_s,
                                         isolation_level=None, check_same_thread=False)
        except (OSError, sqlite3.Error) as exc:
            raise GradebookError(f"cannot open the SQLite gradebook at {self.path}: {exc}") from exc
        self._lock = threading.Lock()
        try:
            mode = self._conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if mode.lower() != "wal":
                raise GradebookError(f"SQLite refused WAL mode for {self.path} (got {mode!r}); "
                                     "is it on a network file system?")
            self._conn.execute("PRAGMA synchronous=FULL")
            self._conn.executescript(SCHEMA)
        except sqlite3.Error as exc:
            self._conn.close()
            raise GradebookError(f"cannot prepare the SQLite gradebook at {self.path}: {exc}") from exc

    def _insert(self, sub: Submission) -> int:
        params = (sub.learner, sub.exercise, sub.code, sub.score, sub.max_score, sub.tests_json(),
                  sub.status, sub.submitted_at, sub.grader_version)
        with self._lock:
            try:
                # A single INSERT in autocommit mode: when execute() returns, it is committed.
                cur = self._conn.execute(
                    "INSERT INTO submissions (learner, exercise, code, score, max_score, tests, "
                    "status, submitted_at, grader_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    params)
            except sqlite3.Error as exc:
                raise GradebookError(f"could not store the submission: {exc}") from exc
            return int(cur.lastrowid)

    def _query(self, sql: str, params: tuple = ()) -> list[tuple]:
        with self._lock:
            try:
                return self._conn.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                raise GradebookError(f"could not read the gradebook: {exc}") from exc

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __repr__(self) -> str:
        return f"SQLiteGradebook({str(self.path)!r})"
