"""Failed tries (the instructor password) counted in PostgreSQL, so the overall cap holds across
every app replica, not per process.

Same interface as :class:`webapp.serving.ratelimit.FailureLimiter` (``attempt``,
``locked_for``). Failures are rows of the shared ``lab_rate_hits`` table (see pg_ratelimit.py):
scope ``<scope>:client`` keyed by the client address's hash, scope ``<scope>:all`` for the
overall count. ``attempt`` checks, verifies and counts inside one transaction holding an
advisory lock on the scope, so parallel tries on several replicas cannot slip past the count.
On a database outage it falls back to a limiter in this process (logged).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable

from gradebook.pg_pool import open_pool
from webapp.serving.pg_ratelimit import _SCHEMA_LOCK_KEY, NOW, SCHEMA
from webapp.serving.ratelimit import FailureLimiter, Gate

log = logging.getLogger("transformer_lab.gradebook")


class PostgresFailureLimiter:
    """``per_client`` failures per ``client_window_s`` per client and ``overall`` per
    ``overall_window_s`` in all (``None``: no overall cap), shared by every replica. Past the
    overall cap an untrusted client may still try ``over_cap_per_client`` times per
    ``client_window_s`` and a trusted one keeps its allowance (see FailureLimiter)."""

    def __init__(self, url: str, per_client: int = 5, client_window_s: float = 600.0,
                 overall: int | None = 20, overall_window_s: float = 3600.0,
                 scope: str = "instructor", connect_timeout_s: float = 10.0,
                 over_cap_per_client: int = 1) -> None:
        # Validates the numbers, and counts in this process while the database is away.
        self._local = FailureLimiter(per_client, client_window_s, overall, overall_window_s,
                                     over_cap_per_client=over_cap_per_client)
        self.per_client, self.client_window_s = per_client, float(client_window_s)
        self.overall, self.overall_window_s = overall, float(overall_window_s)
        self.over_cap_per_client = self._local.over_cap_per_client
        self.scope = scope
        self._pool = open_pool(url, f"failures-{scope}", _SCHEMA_LOCK_KEY, SCHEMA, 2, connect_timeout_s)

    @staticmethod
    def _hash(client: str) -> str:
        return hashlib.sha256(client.encode("utf-8", "surrogatepass")).hexdigest()

    def _over_cap(self, conn, now: float) -> bool:
        """Whether every client together has reached the overall cap (expired rows dropped)."""
        if self.overall is None:
            return False
        all_scope = f"{self.scope}:all"
        conn.execute("DELETE FROM lab_rate_hits WHERE scope = %s AND key = 'all' AND at <= %s",
                     (all_scope, now - self.overall_window_s))
        total = conn.execute("SELECT COUNT(*) FROM lab_rate_hits WHERE scope = %s "
                             "AND key = 'all'", (all_scope,)).fetchone()[0]
        return total >= self.overall

    def _wait(self, conn, key: str, now: float, trusted: bool) -> float:
        """Seconds this client must wait (0: it may try); drops expired rows on the way."""
        client_scope = f"{self.scope}:client"
        conn.execute("DELETE FROM lab_rate_hits WHERE scope = %s AND key = %s AND at <= %s",
                     (client_scope, key, now - self.client_window_s))
        allowed = self.per_client
        if not trusted and self._over_cap(conn, now):
            allowed = self.over_cap_per_client  # throttled, not locked out
        rows = conn.execute("SELECT at FROM lab_rate_hits WHERE scope = %s AND key = %s "
                            "ORDER BY at DESC LIMIT %s", (client_scope, key, allowed)).fetchall()
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
        key = self._hash(client)
        try:
            with self._pool.connection(timeout=3.0) as conn:  # one transaction
                conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))",
                             (f"{self.scope}:failures",))
                now = float(conn.execute(f"SELECT {NOW}").fetchone()[0])
                wait = self._wait(conn, key, now, trusted)
                if wait > 0:
                    return False, wait
                if over_cap_gate is not None and not trusted and self._over_cap(conn, now):
                    ok, wait = over_cap_gate()
                    if not ok:
                        return False, max(wait, 1.0)
                if verify():
                    return True, 0.0
                conn.execute("INSERT INTO lab_rate_hits (scope, key, at) VALUES (%s, %s, %s)",
                             (f"{self.scope}:client", key, now))
                if self.overall is not None:
                    conn.execute("INSERT INTO lab_rate_hits (scope, key, at) VALUES (%s, 'all', %s)",
                                 (f"{self.scope}:all", now))
                return False, 0.0
        except Exception as exc:  # noqa: BLE001 - an outage falls back, it does not open the door
            log.warning("shared failure limit unavailable (%s: %s); counting in this process",
                        type(exc).__name__, exc)
            return self._local.attempt(client, verify, trusted, over_cap_gate)

    def locked_for(self, client: str, trusted: bool = False) -> float:
        """Seconds before ``client`` may try again (0 when it may now)."""
        with self._pool.connection(timeout=3.0) as conn:
            now = float(conn.execute(f"SELECT {NOW}").fetchone()[0])
            return self._wait(conn, self._hash(client), now, trusted)

    def close(self) -> None:
        self._pool.close()


def shared_failure_limiter(per_client: int = 5, client_window_s: float = 600.0,
                           overall: int | None = 20, overall_window_s: float = 3600.0,
                           scope: str = "instructor", url: str | None = None,
                           over_cap_per_client: int = 1):
    """A :class:`PostgresFailureLimiter` when ``url`` (default ``$DATABASE_URL``) names
    PostgreSQL, so replicas share one count; else a :class:`FailureLimiter` in this process."""
    import os

    url = url if url is not None else os.environ.get("DATABASE_URL", "").strip()
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresFailureLimiter(url, per_client, client_window_s, overall,
                                      overall_window_s, scope,
                                      over_cap_per_client=over_cap_per_client)
    return FailureLimiter(per_client, client_window_s, overall, overall_window_s,
                          over_cap_per_client=over_cap_per_client)
