"""Counters kept in a database: accepted tries per key (a sliding-window rate limit) and failed
tries per client (the instructor password, recovery codes), in SQLite or PostgreSQL (no gradio).

One table, ``lab_rate_hits``: a row per counted try (scope, SHA-256 of the key, time). Its two
dialects stand side by side in :data:`DIALECTS`; the counting is written once, in
:class:`SharedRateLimiter` and :class:`SharedFailureLimiter`, over a :class:`HitsTable` that runs
each check as one transaction no other process can interleave with:

- SQLite (the app's default: limits survive a restart and every process on the machine counts
  against one limit): ``BEGIN IMMEDIATE`` in one private file (folder 0700, file 0600), times
  from this machine's clock;
- PostgreSQL (``DATABASE_URL``: every replica counts against one limit): a transaction holding
  an advisory lock on the key, times from the database's clock, the one every replica shares.

Keys are stored hashed (they may hold addresses or learner ids). If the database fails, a
limiter counts in this process instead (webapp.serving.ratelimit, logged) rather than refusing
everyone or opening the door.
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from gradebook.pg_pool import open_pool
from webapp.serving.ratelimit import FailureLimiter, Gate, RateLimiter

log = logging.getLogger("transformer_lab.app")

# The one table; the words its two dialects spell differently stand side by side below.
SCHEMA = """
CREATE TABLE IF NOT EXISTS lab_rate_hits (scope TEXT NOT NULL, key TEXT NOT NULL, at {real} NOT NULL);
CREATE INDEX IF NOT EXISTS lab_rate_hits_key ON lab_rate_hits (scope, key, at);
"""
DIALECTS: dict[str, dict[str, Any]] = {
    "sqlite": {"real": "REAL", "row": "rowid",  # "row": names one row, to refund the latest
               "errors": (sqlite3.Error,)},  # what falls back to counting in this process
    "postgresql": {"real": "DOUBLE PRECISION", "row": "ctid",
                   "errors": (Exception,),  # a pool timeout or a lost server as well
                   "now": "SELECT EXTRACT(EPOCH FROM clock_timestamp())::double precision"},
}
_SCHEMA_LOCK_KEY = 0x7A_1AB_0014  # replicas starting together take turns creating the table
SWEEP_EVERY = 500  # checks between sweeps of every key's expired rows


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


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
    conn.executescript(SCHEMA.format(**DIALECTS["sqlite"]))
    return conn


class HitsTable:
    """``lab_rate_hits`` in one database: transactions, the clock, and the dialect's words."""

    def __init__(self, dialect: str, conn: Any, clock: Callable[[], float] | None = None) -> None:
        self.dialect, self.sql = dialect, DIALECTS[dialect]
        self.conn = conn  # a sqlite3 connection, or a psycopg pool
        self._clock = clock
        self._lock = threading.Lock()  # SQLite: one connection shared by threads

    @classmethod
    def sqlite(cls, path: Path | str, clock: Callable[[], float] = time.time) -> HitsTable:
        return cls("sqlite", private_connect(Path(path)), clock)

    @classmethod
    def postgres(cls, url: str, name: str, pool_size: int = 2,
                 connect_timeout_s: float = 10.0) -> HitsTable:
        pool = open_pool(url, name, _SCHEMA_LOCK_KEY, SCHEMA.format(**DIALECTS["postgresql"]),
                         pool_size, connect_timeout_s)
        return cls("postgresql", pool)

    @contextmanager
    def transaction(self, lock: str | None = None) -> Iterator[Callable[..., Any]]:
        """``run(sql, *params)`` inside one transaction (``?`` marks parameters), committed when
        the block ends; with ``lock``, no other transaction holding the same lock interleaves."""
        if self.dialect == "sqlite":
            with self._lock:  # SQLite writes one at a time: the whole file is the lock
                c = self.conn
                c.execute("BEGIN IMMEDIATE")
                try:
                    yield lambda sql, *params: c.execute(sql, params)
                    c.execute("COMMIT")
                except BaseException:
                    c.execute("ROLLBACK")
                    raise
            return
        with self.conn.connection(timeout=3.0) as conn:  # one transaction
            if lock:
                conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (lock,))
            yield lambda sql, *params: conn.execute(sql.replace("?", "%s"), params)

    def now(self, run: Callable[..., Any]) -> float:
        """Seconds by the shared clock: the database's (PostgreSQL), else this machine's."""
        if self._clock is not None:
            return self._clock()
        return float(run(self.sql["now"]).fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self.conn.close()


class SharedRateLimiter:
    """At most ``per_learner`` accepted tries per key in any ``window_s``, counted in ``table``
    by every limiter (process, replica) on it; the interface of webapp.serving.ratelimit's
    :class:`RateLimiter` (``check``, ``refund``, ``reset``, ``per_learner``, ``window_s``).
    ``scope`` separates limits sharing the table (per learner, per address, ...)."""

    def __init__(self, table: HitsTable, per_learner: int = 10, window_s: float = 60.0,
                 scope: str = "submit") -> None:
        self._local = RateLimiter(per_learner, window_s)  # validates; the fallback on errors
        self.per_learner, self.window_s, self.scope = per_learner, float(window_s), scope
        self._table = table
        self._checks = 0

    def check(self, learner: str) -> tuple[bool, float]:
        """``(True, 0.0)`` and count this attempt, or ``(False, seconds until allowed)``;
        a refused attempt is not counted."""
        key, hits = key_hash(learner), self._table
        try:
            with hits.transaction(f"{self.scope}:{key}") as run:
                now = hits.now(run)
                run("DELETE FROM lab_rate_hits WHERE scope = ? AND key = ? AND at <= ?",
                    self.scope, key, now - self.window_s)
                count, oldest = run("SELECT COUNT(*), MIN(at) FROM lab_rate_hits "
                                    "WHERE scope = ? AND key = ?", self.scope, key).fetchone()
                ok = count < self.per_learner
                if ok:
                    run("INSERT INTO lab_rate_hits (scope, key, at) VALUES (?, ?, ?)",
                        self.scope, key, now)
                self._checks += 1
                if self._checks % SWEEP_EVERY == 0:  # expired rows of keys never checked again
                    run("DELETE FROM lab_rate_hits WHERE scope = ? AND at <= ?", self.scope,
                        now - self.window_s)
            # Rows beyond the limit cannot exist: the oldest leaves the window first.
            return (True, 0.0) if ok else (False, max(0.0, float(oldest) + self.window_s - now))
        except hits.sql["errors"] as exc:  # an outage must not refuse every learner
            log.warning("shared rate limit unavailable (%s: %s); counting in this process",
                        type(exc).__name__, exc)
            return self._local.check(learner)

    def refund(self, learner: str) -> None:
        """Give back the key's latest counted attempt (another limit refused it after all)."""
        self._local.refund(learner)
        row = self._table.sql["row"]
        try:
            with self._table.transaction() as run:
                run(f"DELETE FROM lab_rate_hits WHERE {row} = (SELECT {row} FROM lab_rate_hits "
                    "WHERE scope = ? AND key = ? ORDER BY at DESC LIMIT 1)",
                    self.scope, key_hash(learner))
        except self._table.sql["errors"] as exc:  # a lost refund only costs one attempt
            log.warning("shared rate limit refund failed (%s: %s)", type(exc).__name__, exc)

    def reset(self, learner: str | None = None) -> None:
        """Forget one key's attempts (an instructor's override), or the whole scope's."""
        self._local.reset(learner)
        with self._table.transaction() as run:
            if learner is None:
                run("DELETE FROM lab_rate_hits WHERE scope = ?", self.scope)
            else:
                run("DELETE FROM lab_rate_hits WHERE scope = ? AND key = ?", self.scope,
                    key_hash(learner))

    def close(self) -> None:
        self._table.close()

    def __repr__(self) -> str:
        window = f"{self.window_s:g}" if math.isfinite(self.window_s) else "?"
        return f"{type(self).__name__}(scope={self.scope!r}, {self.per_learner}/{window}s)"


class SQLiteRateLimiter(SharedRateLimiter):
    """The rate limit in one SQLite file (the app's default)."""

    def __init__(self, path: Path | str, per_learner: int = 10, window_s: float = 60.0,
                 scope: str = "submit", clock: Callable[[], float] = time.time) -> None:
        RateLimiter(per_learner, window_s)  # refuse bad numbers before touching the file
        super().__init__(HitsTable.sqlite(path, clock), per_learner, window_s, scope)


class PostgresRateLimiter(SharedRateLimiter):
    """The rate limit in PostgreSQL, one for every replica."""

    def __init__(self, url: str, per_learner: int = 10, window_s: float = 60.0,
                 scope: str = "submit", pool_size: int = 2, connect_timeout_s: float = 10.0) -> None:
        RateLimiter(per_learner, window_s)
        super().__init__(HitsTable.postgres(url, f"ratelimit-{scope}", pool_size,
                                            connect_timeout_s), per_learner, window_s, scope)
        self._pool = self._table.conn


class SharedFailureLimiter:
    """Failed tries counted in ``table``: ``per_client`` per ``client_window_s`` per client and
    ``overall`` per ``overall_window_s`` in all (``None``: no overall cap), shared by every
    limiter on it; the interface and the throttle of webapp.serving.ratelimit's
    :class:`FailureLimiter` (``attempt``, ``locked_for``). Rows: scope ``<scope>:client`` keyed
    by the client's hash, scope ``<scope>:all`` for the overall count. ``attempt`` checks,
    verifies and counts in one transaction locked on the scope, so parallel tries on several
    replicas cannot slip past the count."""

    def __init__(self, table: HitsTable, per_client: int = 5, client_window_s: float = 600.0,
                 overall: int | None = 20, overall_window_s: float = 3600.0,
                 scope: str = "instructor", over_cap_per_client: int = 1) -> None:
        # Validates the numbers, and counts in this process while the database is away.
        self._local = FailureLimiter(per_client, client_window_s, overall, overall_window_s,
                                     over_cap_per_client=over_cap_per_client)
        self.per_client, self.client_window_s = per_client, float(client_window_s)
        self.overall, self.overall_window_s = overall, float(overall_window_s)
        self.over_cap_per_client = self._local.over_cap_per_client
        self.scope = scope
        self._table = table

    def _over_cap(self, run: Callable[..., Any], now: float) -> bool:
        """Whether every client together has reached the overall cap (expired rows dropped)."""
        if self.overall is None:
            return False
        all_scope = f"{self.scope}:all"
        run("DELETE FROM lab_rate_hits WHERE scope = ? AND key = 'all' AND at <= ?", all_scope,
            now - self.overall_window_s)
        total = run("SELECT COUNT(*) FROM lab_rate_hits WHERE scope = ? AND key = 'all'",
                    all_scope).fetchone()[0]
        return total >= self.overall

    def _wait(self, run: Callable[..., Any], key: str, now: float, trusted: bool) -> float:
        """Seconds this client must wait (0: it may try); drops expired rows on the way."""
        client_scope = f"{self.scope}:client"
        run("DELETE FROM lab_rate_hits WHERE scope = ? AND key = ? AND at <= ?", client_scope, key,
            now - self.client_window_s)
        allowed = self.per_client
        if not trusted and self._over_cap(run, now):
            allowed = self.over_cap_per_client  # throttled, not locked out
        rows = run("SELECT at FROM lab_rate_hits WHERE scope = ? AND key = ? ORDER BY at DESC "
                   "LIMIT ?", client_scope, key, allowed).fetchall()
        if len(rows) >= allowed:  # rows[-1]: the allowed-th newest failure
            return max(0.0, float(rows[-1][0]) + self.client_window_s - now)
        return 0.0

    def attempt(self, client: str, verify: Callable[[], bool], trusted: bool = False,
                over_cap_gate: Gate | None = None) -> tuple[bool, float]:
        """``(True, 0)`` when ``verify()`` succeeds; ``(False, 0)`` when it fails (counted);
        ``(False, wait_s)`` when locked out (``verify`` is not called at all). ``trusted``:
        this client logged in successfully before, so the overall cap does not throttle it.
        ``over_cap_gate``: past the overall cap an untrusted try must also pass it (see
        FailureLimiter.attempt)."""
        key, hits = key_hash(client), self._table
        try:
            with hits.transaction(f"{self.scope}:failures") as run:
                now = hits.now(run)
                wait = self._wait(run, key, now, trusted)
                if wait > 0:
                    return False, wait
                if over_cap_gate is not None and not trusted and self._over_cap(run, now):
                    ok, wait = over_cap_gate()
                    if not ok:
                        return False, max(wait, 1.0)
                if verify():
                    return True, 0.0
                run("INSERT INTO lab_rate_hits (scope, key, at) VALUES (?, ?, ?)",
                    f"{self.scope}:client", key, now)
                if self.overall is not None:
                    run("INSERT INTO lab_rate_hits (scope, key, at) VALUES (?, 'all', ?)",
                        f"{self.scope}:all", now)
                return False, 0.0
        except hits.sql["errors"] as exc:  # an outage falls back, it does not open the door
            log.warning("shared failure limit unavailable (%s: %s); counting in this process",
                        type(exc).__name__, exc)
            return self._local.attempt(client, verify, trusted, over_cap_gate)

    def locked_for(self, client: str, trusted: bool = False) -> float:
        """Seconds before ``client`` may try again (0 when it may now)."""
        with self._table.transaction() as run:
            return self._wait(run, key_hash(client), self._table.now(run), trusted)

    def close(self) -> None:
        self._table.close()


class PostgresFailureLimiter(SharedFailureLimiter):
    """Failed tries counted in PostgreSQL, one count for every replica."""

    def __init__(self, url: str, per_client: int = 5, client_window_s: float = 600.0,
                 overall: int | None = 20, overall_window_s: float = 3600.0,
                 scope: str = "instructor", connect_timeout_s: float = 10.0,
                 over_cap_per_client: int = 1) -> None:
        FailureLimiter(per_client, client_window_s, overall, overall_window_s,
                       over_cap_per_client=over_cap_per_client)  # bad numbers open nothing
        super().__init__(HitsTable.postgres(url, f"failures-{scope}", 2, connect_timeout_s),
                         per_client, client_window_s, overall, overall_window_s, scope,
                         over_cap_per_client)


def shared_failure_limiter(per_client: int = 5, client_window_s: float = 600.0,
                           overall: int | None = 20, overall_window_s: float = 3600.0,
                           scope: str = "instructor", url: str | None = None,
                           over_cap_per_client: int = 1):
    """A :class:`PostgresFailureLimiter` when ``url`` (default ``$DATABASE_URL``) names
    PostgreSQL, so replicas share one count; else a :class:`FailureLimiter` in this process."""
    url = url if url is not None else os.environ.get("DATABASE_URL", "").strip()
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresFailureLimiter(url, per_client, client_window_s, overall,
                                      overall_window_s, scope,
                                      over_cap_per_client=over_cap_per_client)
    return FailureLimiter(per_client, client_window_s, overall, overall_window_s,
                          over_cap_per_client=over_cap_per_client)
