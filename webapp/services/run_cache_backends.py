"""Which run cache the app uses, and its PostgreSQL table (no gradio): PostgreSQL when
``$DATABASE_URL`` names it (every replica shares its finished runs), else files in
``$LAB_DATA_DIR/run_cache`` (webapp.services.run_cache.FileRunCache); bounded by
``$LAB_RUN_CACHE_MB``.

In PostgreSQL one table, ``lab_run_cache`` (key, blob, size, tick). ``tick`` comes from a
sequence and is renewed on every read, so the least recently used entry is the smallest tick
wherever it was read. After each store one statement deletes the oldest entries whose running
total (newest first) passes the byte bound.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from gradebook.pg_pool import open_pool
from gradebook.settings import GradebookSettings
from webapp.services.run_cache import FileRunCache, RunCache
from webapp.settings import WebSettings

log = logging.getLogger("transformer_lab.app")


def _max_bytes() -> int:
    return int(WebSettings.read("run_cache_mb") * 1024 * 1024)  # ValueError naming LAB_RUN_CACHE_MB


def open_run_cache(url: str | None = None, folder: str | Path | None = None,
                   max_bytes: int | None = None) -> RunCache:
    """PostgreSQL when ``url`` (default ``$DATABASE_URL``) names it, else files in ``folder``
    (default ``$LAB_DATA_DIR/run_cache``); bounded by ``max_bytes`` (``$LAB_RUN_CACHE_MB``)."""
    url = url if url is not None else os.environ.get("DATABASE_URL", "").strip()
    size = max_bytes if max_bytes is not None else _max_bytes()
    if url and url.startswith(("postgresql://", "postgres://")):
        return PostgresRunCache(url, size)
    base = GradebookSettings.read("data_dir")  # the app's one data folder
    return FileRunCache(folder if folder is not None else base / "run_cache", size)


SCHEMA = """
CREATE SEQUENCE IF NOT EXISTS lab_run_cache_tick;
CREATE TABLE IF NOT EXISTS lab_run_cache (
    key  TEXT PRIMARY KEY,
    blob BYTEA  NOT NULL,
    size BIGINT NOT NULL,
    tick BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS lab_run_cache_tick_idx ON lab_run_cache (tick);
"""
_SCHEMA_LOCK_KEY = 0x7A_1AB_0012  # replicas starting together take turns creating the table
_TRIM_LOCK_KEY = 0x7A_1AB_0013  # stores trim one at a time: concurrent trims could deadlock
EVICT = """
DELETE FROM lab_run_cache WHERE key IN (
    SELECT key FROM (SELECT key, SUM(size) OVER (ORDER BY tick DESC, key) AS running
                     FROM lab_run_cache) ranked
    WHERE running > %s)
"""


class PostgresRunCache(RunCache):
    """RunCache on PostgreSQL through a small psycopg pool (statements take milliseconds)."""

    backend = "postgresql"

    def __init__(self, url: str, max_bytes: int, pool_size: int = 2,
                 connect_timeout_s: float = 10.0) -> None:
        super().__init__(max_bytes)
        self._pool = open_pool(url, "run-cache", _SCHEMA_LOCK_KEY, SCHEMA, pool_size, connect_timeout_s)

    def _rows(self, sql: str, params: tuple = ()) -> list[tuple]:
        with self._pool.connection() as conn:  # committed when the block ends
            cur = conn.execute(sql, params)
            return cur.fetchall() if cur.description else []

    def _get(self, key: str) -> bytes | None:
        rows = self._rows("UPDATE lab_run_cache SET tick = nextval('lab_run_cache_tick') "
                          "WHERE key = %s RETURNING blob", (key,))
        return bytes(rows[0][0]) if rows else None

    def contains(self, key: str) -> bool:
        return bool(self._rows("SELECT 1 FROM lab_run_cache WHERE key = %s", (key,)))

    def total_bytes(self) -> int:
        return int(self._rows("SELECT COALESCE(SUM(size), 0) FROM lab_run_cache")[0][0])

    def _put(self, key: str, blob: bytes) -> None:
        with self._pool.connection() as conn:  # one transaction: store, then trim
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_TRIM_LOCK_KEY,))
            conn.execute("INSERT INTO lab_run_cache (key, blob, size, tick) "
                         "VALUES (%s, %s, %s, nextval('lab_run_cache_tick')) "
                         "ON CONFLICT (key) DO UPDATE SET tick = EXCLUDED.tick",
                         (key, blob, len(blob)))
            conn.execute(EVICT, (self.max_bytes,))

    def _touch(self, key: str) -> None:
        self._rows("UPDATE lab_run_cache SET tick = nextval('lab_run_cache_tick') WHERE key = %s",
                   (key,))

    def discard(self, key: str) -> None:
        self._rows("DELETE FROM lab_run_cache WHERE key = %s", (key,))

    def close(self) -> None:
        self._pool.close()
