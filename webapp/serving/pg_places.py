"""Places held by a client across replicas, in PostgreSQL: "at most N at once per address".

The grading queue lets one client address hold a few places at a time (one grading, the rest
waiting). Each replica counts its own; with ``DATABASE_URL`` the places are also leased here so
that a client spreading requests over N replicas still holds at most ``per_key`` in all. A lease
is a row (scope, key hash, expiry by the database clock); ``acquire`` takes an advisory lock on
the key, drops expired leases, counts and inserts, so two replicas cannot both take the last
place. A replica that dies leaves leases that expire after ``lease_s``. On a database error a
place is granted (the replica's own count still applies) and the error logged.
"""

from __future__ import annotations

import hashlib
import logging
import uuid

from gradebook.pg_pool import open_pool

log = logging.getLogger("transformer_lab.gradebook")

SCHEMA = """
CREATE TABLE IF NOT EXISTS lab_client_places (
    id      TEXT PRIMARY KEY,
    scope   TEXT             NOT NULL,
    key     TEXT             NOT NULL,
    expires DOUBLE PRECISION NOT NULL
);
CREATE INDEX IF NOT EXISTS lab_client_places_key ON lab_client_places (scope, key);
"""
_SCHEMA_LOCK_KEY = 0x7A_1AB_0015
NOW = "EXTRACT(EPOCH FROM clock_timestamp())::double precision"
LOCAL = "local"  # the lease id handed out when the database could not be asked


class PostgresPlaces:
    """At most ``per_key`` places per key at once, across every replica sharing ``url``."""

    def __init__(self, url: str, per_key: int = 2, scope: str = "grading",
                 lease_s: float = 600.0, pool_size: int = 2, connect_timeout_s: float = 10.0) -> None:
        if per_key < 1 or lease_s <= 0:
            raise ValueError("per_key must be >= 1 and lease_s > 0")
        self.per_key, self.scope, self.lease_s = per_key, scope, float(lease_s)
        self._pool = open_pool(url, f"places-{scope}", _SCHEMA_LOCK_KEY, SCHEMA, pool_size, connect_timeout_s)

    def acquire(self, key: str) -> str | None:
        """A lease id for one place of ``key``, or None when it already holds ``per_key``."""
        h = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
        lease = uuid.uuid4().hex
        try:
            with self._pool.connection(timeout=3.0) as conn:  # one transaction
                conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))",
                             (f"places:{self.scope}:{h}",))
                conn.execute(f"DELETE FROM lab_client_places WHERE scope = %s AND key = %s "
                             f"AND expires <= {NOW}", (self.scope, h))
                held = conn.execute("SELECT COUNT(*) FROM lab_client_places WHERE scope = %s "
                                    "AND key = %s", (self.scope, h)).fetchone()[0]
                if held >= self.per_key:
                    return None
                conn.execute(f"INSERT INTO lab_client_places (id, scope, key, expires) "
                             f"VALUES (%s, %s, %s, {NOW} + %s)",
                             (lease, self.scope, h, self.lease_s))
            return lease
        except Exception as exc:  # noqa: BLE001 - an outage must not refuse everyone
            log.warning("shared client places unavailable (%s: %s)", type(exc).__name__, exc)
            return LOCAL

    def release(self, lease: str | None) -> None:
        """Give a place back (a None or local lease needs nothing)."""
        if not lease or lease == LOCAL:
            return
        try:
            with self._pool.connection(timeout=3.0) as conn:
                conn.execute("DELETE FROM lab_client_places WHERE id = %s", (lease,))
        except Exception as exc:  # noqa: BLE001 - the lease expires on its own
            log.warning("could not release a shared place (%s); it expires in %.0f s", exc,
                        self.lease_s)

    def close(self) -> None:
        self._pool.close()

