"""A sliding-window rate limit kept in SQLite: the app's default, so limits survive a restart and
every process on the machine counts against one limit (no gradio).

Same interface as :class:`webapp.serving.ratelimit.RateLimiter` (``check``, ``refund``,
``reset``, ``per_learner``, ``window_s``) and the same rows as the PostgreSQL limiter: one per
accepted attempt (scope, key hash, time). ``check`` runs in one ``BEGIN IMMEDIATE`` transaction,
so two processes cannot both take the last place. Keys are stored as SHA-256 hashes (they may
hold addresses). The file is private: its folder 0700, the file 0600. If the database fails the
limiter counts in this process instead (logged) rather than refusing everyone.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

from webapp.serving.ratelimit import RateLimiter

log = logging.getLogger("transformer_lab.app")

SCHEMA = """
CREATE TABLE IF NOT EXISTS lab_rate_hits (scope TEXT NOT NULL, key TEXT NOT NULL, at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS lab_rate_hits_key ON lab_rate_hits (scope, key, at);
"""
SWEEP_EVERY = 500  # checks between sweeps of every key's expired rows


def private_connect(path: Path) -> sqlite3.Connection:
    """A connection to ``path``: a folder it creates is 0700, and the file exists as 0600 before
    SQLite opens it, so the -wal and -shm files SQLite makes get 0600 too. No umask: it is
    process-wide, and two threads setting and restoring it can leave it stuck."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    os.chmod(path, 0o600)  # one left 0644 by an older version
    conn = sqlite3.connect(str(path), timeout=5.0, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    # A lost hit after a power cut costs one extra allowed try; an fsync per check cost a class
    # under a flood more than its gradings (three checks per submission, one lock).
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.executescript(SCHEMA)
    return conn


class SQLiteRateLimiter:
    """At most ``per_learner`` accepted attempts per key in any ``window_s``, in one file."""

    def __init__(self, path: Path | str, per_learner: int = 10, window_s: float = 60.0,
                 scope: str = "submit", clock: Callable[[], float] = time.time) -> None:
        self._local = RateLimiter(per_learner, window_s)  # validates; the fallback on errors
        self.per_learner, self.window_s, self.scope = per_learner, float(window_s), scope
        self._clock = clock
        self._lock = threading.Lock()
        self._conn = private_connect(Path(path))
        self._checks = 0

    @staticmethod
    def _hash(key: str) -> str:
        return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()

    def check(self, learner: str) -> tuple[bool, float]:
        """``(True, 0.0)`` and count this attempt, or ``(False, seconds until allowed)``;
        a refused attempt is not counted."""
        key, now = self._hash(learner), self._clock()
        try:
            with self._lock:
                c = self._conn
                c.execute("BEGIN IMMEDIATE")
                try:
                    c.execute("DELETE FROM lab_rate_hits WHERE scope = ? AND key = ? AND at <= ?",
                              (self.scope, key, now - self.window_s))
                    count, oldest = c.execute("SELECT COUNT(*), MIN(at) FROM lab_rate_hits "
                                              "WHERE scope = ? AND key = ?",
                                              (self.scope, key)).fetchone()
                    ok = count < self.per_learner
                    if ok:
                        c.execute("INSERT INTO lab_rate_hits (scope, key, at) VALUES (?, ?, ?)",
                                  (self.scope, key, now))
                    c.execute("COMMIT")
                except BaseException:
                    c.execute("ROLLBACK")
                    raise
                self._checks += 1
                if self._checks % SWEEP_EVERY == 0:
                    c.execute("DELETE FROM lab_rate_hits WHERE scope = ? AND at <= ?",
                              (self.scope, now - self.window_s))
            return (True, 0.0) if ok else (False, max(0.0, float(oldest) + self.window_s - now))
        except sqlite3.Error as exc:
            log.warning("rate limit file unavailable (%s); counting in this process", exc)
            return self._local.check(learner)

    def refund(self, learner: str) -> None:
        """Give back the key's latest counted attempt (another limit refused it after all)."""
        self._local.refund(learner)
        try:
            with self._lock:
                self._conn.execute(
                    "DELETE FROM lab_rate_hits WHERE rowid = (SELECT rowid FROM lab_rate_hits "
                    "WHERE scope = ? AND key = ? ORDER BY at DESC LIMIT 1)",
                    (self.scope, self._hash(learner)))
        except sqlite3.Error as exc:
            log.warning("rate limit refund failed (%s)", exc)

    def reset(self, learner: str | None = None) -> None:
        """Forget one key's attempts (an instructor's override), or the whole scope's."""
        self._local.reset(learner)
        with self._lock:
            if learner is None:
                self._conn.execute("DELETE FROM lab_rate_hits WHERE scope = ?", (self.scope,))
            else:
                self._conn.execute("DELETE FROM lab_rate_hits WHERE scope = ? AND key = ?",
                                   (self.scope, self._hash(learner)))

    def close(self) -> None:
        with self._lock:
            self._conn.close()
