"""A sliding-window rate limit kept in PostgreSQL: every app replica counts against one limit.

Same interface as :class:`webapp.serving.ratelimit.RateLimiter` (``check``, ``refund``, ``reset``,
``per_learner``, ``window_s``). Each accepted attempt is a row (scope, key hash, server time);
``check`` takes a transaction-scoped advisory lock on the key, drops the key's rows older than
the window, counts the rest and adds one if there is room, so two replicas checking the same
learner at the same moment cannot both take the last place. Times come from the database's
clock, the one clock every replica shares. Keys are stored as SHA-256 hashes (they may hold
addresses or learner ids). If the database fails, the limiter falls back to a limit in this
process (logged) rather than refusing everyone.
"""

from __future__ import annotations

import hashlib
import logging
import math

from gradebook.pg_pool import open_pool
from webapp.serving.ratelimit import RateLimiter

log = logging.getLogger("transformer_lab.gradebook")

SCHEMA = """
CREATE TABLE IF NOT EXISTS lab_rate_hits (
    scope TEXT             NOT NULL,
    key   TEXT             NOT NULL,
    at    DOUBLE PRECISION NOT NULL
);
CREATE INDEX IF NOT EXISTS lab_rate_hits_key ON lab_rate_hits (scope, key, at);
"""
_SCHEMA_LOCK_KEY = 0x7A_1AB_0014
NOW = "EXTRACT(EPOCH FROM clock_timestamp())::double precision"
SWEEP_EVERY = 500  # checks between sweeps of every key's expired rows


class PostgresRateLimiter:
    """At most ``per_learner`` accepted attempts per key in any ``window_s``, across replicas.

    ``scope`` separates limits sharing the table (submissions per learner, per address, ...).
    """

    def __init__(self, url: str, per_learner: int = 10, window_s: float = 60.0,
                 scope: str = "submit", pool_size: int = 2, connect_timeout_s: float = 10.0) -> None:
        self._local = RateLimiter(per_learner, window_s)  # validates; the fallback on outages
        self.per_learner, self.window_s, self.scope = per_learner, float(window_s), scope
        self._checks = 0
        self._pool = open_pool(url, f"ratelimit-{scope}", _SCHEMA_LOCK_KEY, SCHEMA, pool_size, connect_timeout_s)

    def _hash(self, learner: str) -> str:
        return hashlib.sha256(learner.encode("utf-8", "surrogatepass")).hexdigest()

    def check(self, learner: str) -> tuple[bool, float]:
        """``(True, 0.0)`` and count this attempt, or ``(False, seconds until allowed)``;
        a refused attempt is not counted."""
        key = self._hash(learner)
        try:
            with self._pool.connection(timeout=3.0) as conn:  # one transaction
                conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))",
                             (f"{self.scope}:{key}",))
                now = float(conn.execute(f"SELECT {NOW}").fetchone()[0])
                conn.execute("DELETE FROM lab_rate_hits WHERE scope = %s AND key = %s AND at <= %s",
                             (self.scope, key, now - self.window_s))
                count, oldest = conn.execute(
                    "SELECT COUNT(*), MIN(at) FROM lab_rate_hits WHERE scope = %s AND key = %s",
                    (self.scope, key)).fetchone()
                if count < self.per_learner:
                    conn.execute("INSERT INTO lab_rate_hits (scope, key, at) VALUES (%s, %s, %s)",
                                 (self.scope, key, now))
                    ok, wait = True, 0.0
                else:
                    # Rows beyond the limit cannot exist: the oldest leaves the window first.
                    ok, wait = False, max(0.0, float(oldest) + self.window_s - now)
            self._checks += 1
            if self._checks % SWEEP_EVERY == 0:
                self._sweep()
            return ok, wait
        except Exception as exc:  # noqa: BLE001 - an outage must not refuse every learner
            log.warning("shared rate limit unavailable (%s: %s); counting in this process",
                        type(exc).__name__, exc)
            return self._local.check(learner)

    def _sweep(self) -> None:
        """Drop expired rows of keys that were never checked again (bounded table)."""
        with self._pool.connection(timeout=3.0) as conn:
            conn.execute(f"DELETE FROM lab_rate_hits WHERE scope = %s AND at <= {NOW} - %s",
                         (self.scope, self.window_s))

    def refund(self, learner: str) -> None:
        """Give back the key's latest counted attempt (another limit refused it after all)."""
        self._local.refund(learner)
        try:
            with self._pool.connection(timeout=3.0) as conn:
                conn.execute("DELETE FROM lab_rate_hits WHERE ctid = (SELECT ctid FROM lab_rate_hits"
                             " WHERE scope = %s AND key = %s ORDER BY at DESC LIMIT 1)",
                             (self.scope, self._hash(learner)))
        except Exception as exc:  # noqa: BLE001 - a lost refund only costs one attempt
            log.warning("shared rate limit refund failed (%s: %s)", type(exc).__name__, exc)

    def reset(self, learner: str | None = None) -> None:
        """Forget one key's attempts (an instructor's override), or the whole scope's."""
        self._local.reset(learner)
        with self._pool.connection(timeout=3.0) as conn:
            if learner is None:
                conn.execute("DELETE FROM lab_rate_hits WHERE scope = %s", (self.scope,))
            else:
                conn.execute("DELETE FROM lab_rate_hits WHERE scope = %s AND key = %s",
                             (self.scope, self._hash(learner)))

    def close(self) -> None:
        self._pool.close()

    def __repr__(self) -> str:
        window = f"{self.window_s:g}" if math.isfinite(self.window_s) else "?"
        return f"PostgresRateLimiter(scope={self.scope!r}, {self.per_learner}/{window}s)"
