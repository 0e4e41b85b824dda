"""One way to open a PostgreSQL connection pool and create its tables, shared by the gradebook,
the shared limiters and the run cache."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def open_pool(url: str, name: str, lock_key: int, setup: str | Callable[[Any], None],
              pool_size: int = 2, connect_timeout_s: float = 10.0) -> Any:
    """An open ``psycopg_pool.ConnectionPool`` whose schema is in place.

    ``setup`` (SQL, or a function of a connection) runs in one transaction under the advisory
    lock ``lock_key``, so replicas starting together take turns creating the same tables. The
    pool is closed again if anything fails.
    """
    from psycopg_pool import ConnectionPool

    pool = ConnectionPool(url, min_size=1, max_size=pool_size, open=False, name=name,
                          timeout=connect_timeout_s,
                          kwargs={"connect_timeout": max(1, int(connect_timeout_s))},
                          check=ConnectionPool.check_connection)
    try:
        pool.open(wait=True, timeout=connect_timeout_s)
        with pool.connection() as conn:  # one transaction, committed on exit
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (lock_key,))
            if callable(setup):
                setup(conn)
            else:
                conn.execute(setup)
    except Exception:
        pool.close()
        raise
    return pool
