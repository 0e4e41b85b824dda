"""PostgreSQL gradebook: one shared database for several app replicas, through a small pool."""

from __future__ import annotations

import re

from grader.gradebook.model import GradebookError, Submission
from grader.gradebook.store import Gradebook

SCHEMA = """
CREATE TABLE IF NOT EXISTS submissions (
    id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    learner        TEXT             NOT NULL,
    exercise       TEXT             NOT NULL,
    code           TEXT             NOT NULL,
    score          DOUBLE PRECISION NOT NULL,
    max_score      DOUBLE PRECISION NOT NULL,
    tests          JSONB            NOT NULL,
    status         TEXT             NOT NULL,
    submitted_at   TIMESTAMPTZ      NOT NULL,
    grader_version TEXT             NOT NULL
);
CREATE INDEX IF NOT EXISTS submissions_learner ON submissions (learner, exercise);
"""
# Replicas starting together would race on CREATE TABLE IF NOT EXISTS (a unique-key error in
# pg_type); a transaction-scoped advisory lock makes them take turns. The key is arbitrary.
_SCHEMA_LOCK_KEY = 0x7A_1AB_0005


def redact(url: str) -> str:
    """The URL with any password replaced by ***, safe for error messages and logs."""
    return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", url)


class PostgresGradebook(Gradebook):
    """A gradebook in PostgreSQL (psycopg 3 and psycopg_pool).

    ``record`` returns after the INSERT's transaction has committed; with PostgreSQL's
    default ``synchronous_commit=on`` that means the WAL is flushed on the server. Threads
    borrow connections from a pool of at most ``pool_size``; a connection that died (server
    restart, idle timeout) is checked and replaced when borrowed, and while the pool is still
    reconnecting after an outage a statement uses a direct connection instead.
    """

    backend = "postgresql"

    def __init__(self, url: str, pool_size: int = 4, connect_timeout_s: float = 10.0) -> None:
        try:
            from psycopg_pool import ConnectionPool
        except ImportError as exc:  # pragma: no cover - psycopg is in requirements.txt
            raise GradebookError("DATABASE_URL names PostgreSQL but psycopg is not installed: "
                                 "pip install 'psycopg[binary,pool]'") from exc
        if pool_size < 1:
            raise ValueError(f"pool_size must be at least 1, got {pool_size}")
        self.url = url
        self.timeout_s = connect_timeout_s
        # Waiting for a free pooled connection: statements take milliseconds, so a long wait
        # means the pool has no live connection (an outage) rather than a busy one.
        self.borrow_timeout_s = min(3.0, connect_timeout_s)
        self._pool = ConnectionPool(
            url, min_size=1, max_size=pool_size, open=False, name="gradebook",
            kwargs={"connect_timeout": max(1, int(connect_timeout_s))},
            check=ConnectionPool.check_connection, timeout=connect_timeout_s)
        try:
            self._pool.open(wait=True, timeout=connect_timeout_s)
            with self._pool.connection() as conn:  # one transaction, committed on exit
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK_KEY,))
                conn.execute(SCHEMA)
        except Exception as exc:
            self._pool.close()
            raise GradebookError(f"cannot open the PostgreSQL gradebook at {redact(url)}: "
                                 f"{type(exc).__name__}: {exc}") from exc

    def _run(self, sql: str, params: tuple) -> list[tuple]:
        """One statement in its own transaction, committed before this returns."""
        import psycopg
        from psycopg_pool import PoolTimeout

        try:
            # The pool's context manager commits when the block ends without an exception
            # (and rolls back otherwise).
            with self._pool.connection(timeout=self.borrow_timeout_s) as conn:
                return conn.execute(sql, params).fetchall()
        except PoolTimeout:
            # No connection was borrowed, so nothing ran. After an outage the pool retries
            # with growing back-off; the server may be back already, so try once directly.
            pass
        with psycopg.connect(self.url, connect_timeout=max(1, int(self.timeout_s))) as conn:
            return conn.execute(sql, params).fetchall()  # committed when the block closes

    def _insert(self, sub: Submission) -> int:
        from psycopg.types.json import Jsonb

        params = (sub.learner, sub.exercise, sub.code, sub.score, sub.max_score, Jsonb(sub.tests),
                  sub.status, sub.submitted_at, sub.grader_version)
        try:
            rows = self._run(
                "INSERT INTO submissions (learner, exercise, code, score, max_score, tests, "
                "status, submitted_at, grader_version) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING id", params)
        except Exception as exc:
            raise GradebookError(f"could not store the submission: {type(exc).__name__}: {exc}") from exc
        return int(rows[0][0])

    def _query(self, sql: str, params: tuple = ()) -> list[tuple]:
        try:
            return self._run(sql.replace("?", "%s"), params)
        except Exception as exc:
            raise GradebookError(f"could not read the gradebook: {type(exc).__name__}: {exc}") from exc

    def close(self) -> None:
        self._pool.close()

    def __repr__(self) -> str:
        return f"PostgresGradebook({redact(self.url)!r})"
