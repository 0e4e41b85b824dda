"""SQLite gradebook: one file in WAL mode, fsynced on every commit, shared by threads under a lock."""

from __future__ import annotations

import os
import sqlite3
import threading
from pathlib import Path

from gradebook.model import GradebookError, Submission
from gradebook.schema import DIAGNOSIS_COLUMNS, INDEXES, schema
from gradebook.store import Gradebook, diagnosis_updates, legacy_ids

PRIVATE_DIR, PRIVATE_FILE = 0o700, 0o600
SIDE_FILES = ("-wal", "-shm", "-journal")


def make_private(path: Path) -> None:
    """Issue 19, property 6: data at rest is private. The gradebook holds every learner's code
    and the hashes, so its folder is made 0700 when this creates it and the file exists as 0600
    before SQLite opens it; SQLite gives the -wal and -shm files it creates the database file's
    mode. A file left 0644 by an older version, and its side files, are made 0600. No umask:
    it is process-wide, and two threads setting and restoring it can leave it at 077 for good.
    An existing folder keeps its mode (it may be shared, such as /tmp): the files are private.
    """
    folder = path.parent
    if not folder.exists():
        folder.mkdir(parents=True, exist_ok=True, mode=PRIVATE_DIR)
        os.chmod(folder, PRIVATE_DIR)  # mkdir's mode is only what the umask lets through
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, PRIVATE_FILE)
    try:
        if os.fstat(fd).st_mode & 0o077:
            os.fchmod(fd, PRIVATE_FILE)
    finally:
        os.close(fd)
    for suffix in SIDE_FILES:
        side = path.with_name(path.name + suffix)
        if side.exists() and side.stat().st_mode & 0o077:
            os.chmod(side, PRIVATE_FILE)


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
            make_private(self.path)
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
            self._conn.executescript(schema("sqlite"))
            self._migrate()
            self._conn.executescript(INDEXES)
        except sqlite3.Error as exc:
            self._conn.close()
            raise GradebookError(f"cannot prepare the SQLite gradebook at {self.path}: {exc}") from exc

    def _migrate(self) -> None:
        """Add ``learner_id`` and the diagnosis columns to a gradebook made before them; old
        rows keep working.

        In one IMMEDIATE transaction, so two processes opening the same old file take turns.
        Old rows of signed-in learners (a bare HF username) get ``hf:<name>``; old guest rows
        keep no id: nothing proved who typed those names. Old rows get their mistakes and
        stage from the per-test results they already hold.
        """
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            cols = {r[1] for r in conn.execute("PRAGMA table_info(submissions)")}
            if "learner_id" not in cols:
                conn.execute("ALTER TABLE submissions ADD COLUMN learner_id TEXT")
                labels = [r[0] for r in conn.execute(
                    "SELECT DISTINCT learner FROM submissions WHERE learner_id IS NULL")]
                conn.executemany("UPDATE submissions SET learner_id = ? "
                                 "WHERE learner_id IS NULL AND learner = ?", legacy_ids(labels))
            if not set(DIAGNOSIS_COLUMNS) <= cols:
                for name in DIAGNOSIS_COLUMNS:
                    if name not in cols:
                        conn.execute(f"ALTER TABLE submissions ADD COLUMN {name} TEXT NOT NULL "
                                     "DEFAULT ''")
                old = conn.execute("SELECT id, tests, status FROM submissions").fetchall()
                conn.executemany("UPDATE submissions SET mistakes = ?, stage = ?, stage_zh = ? "
                                 "WHERE id = ?", diagnosis_updates(old))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def _insert(self, sub: Submission) -> int:
        params = (sub.learner, sub.exercise, sub.code, sub.score, sub.max_score, sub.tests_json(),
                  sub.status, sub.submitted_at, sub.grader_version, sub.learner_id,
                  sub.mistakes_text(), sub.stage, sub.stage_zh)
        with self._lock:
            try:
                # A single INSERT in autocommit mode: when execute() returns, it is committed.
                cur = self._conn.execute(
                    "INSERT INTO submissions (learner, exercise, code, score, max_score, tests, "
                    "status, submitted_at, grader_version, learner_id, mistakes, stage, stage_zh) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", params)
            except sqlite3.Error as exc:
                raise GradebookError(f"could not store the submission: {exc}") from exc
            return int(cur.lastrowid)

    def _query(self, sql: str, params: tuple = ()) -> list[tuple]:
        with self._lock:
            try:
                return self._conn.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                raise GradebookError(f"could not read the gradebook: {exc}") from exc

    def _execute(self, sql: str, params: tuple = ()) -> None:
        with self._lock:
            try:
                self._conn.execute(sql, params)  # autocommit: committed when this returns
            except sqlite3.Error as exc:
                raise GradebookError(f"could not write to the gradebook: {exc}") from exc

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __repr__(self) -> str:
        return f"SQLiteGradebook({str(self.path)!r})"
