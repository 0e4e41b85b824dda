"""PostgreSQL gradebook: one shared database for several app replicas, through a small pool."""

from __future__ import annotations

import re

from gradebook.model import GradebookError, Submission
from gradebook.pg_pool import open_pool
from gradebook.schema import DIAGNOSIS_COLUMNS, INDEXES, schema
from gradebook.store import Gradebook, diagnosis_updates, legacy_ids

# A gradebook made before learner ids: add the column (old rows keep working).
HAS_LEARNER_ID = ("SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() "
                  "AND table_name = 'submissions' AND column_name = 'learner_id'")
# A gradebook made before the class view: add the diagnosis columns, filled from the tests.
HAS_DIAGNOSIS = ("SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() "
                 "AND table_name = 'submissions' AND column_name = 'stage_zh'")
# Replicas starting together would race on CREATE TABLE IF NOT EXISTS (a unique-key error in
# pg_type); a transaction-scoped advisory lock makes them take turns. The key is arbitrary.
_SCHEMA_LOCK_KEY = 0x7A_1AB_0005


def _migrate(conn) -> None:
    """Add learner_id inside the caller's locked transaction; old signed-in rows get hf:<name>."""
    conn.execute("ALTER TABLE submissions ADD COLUMN learner_id TEXT")
    labels = [r[0] for r in conn.execute(
        "SELECT DISTINCT learner FROM submissions WHERE learner_id IS NULL").fetchall()]
    for learner_id, label in legacy_ids(labels):
        conn.execute("UPDATE submissions SET learner_id = %s WHERE learner_id IS NULL "
                     "AND learner = %s", (learner_id, label))


def _migrate_diagnosis(conn) -> None:
    """Add mistakes, stage and stage_zh inside the caller's locked transaction; old rows get
    them from the per-test results they hold."""
    for name in DIAGNOSIS_COLUMNS:
        conn.execute(f"ALTER TABLE submissions ADD COLUMN IF NOT EXISTS {name} TEXT NOT NULL "
                     "DEFAULT ''")
    old = conn.execute("SELECT id, tests, status FROM submissions").fetchall()
    updates = diagnosis_updates(old)
    if updates:
        with conn.cursor() as cur:
            cur.executemany("UPDATE submissions SET mistakes = %s, stage = %s, stage_zh = %s "
                            "WHERE id = %s", updates)


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
    TESTS_TEXT = "tests::text"
    TESTS_PARAM = "CAST(? AS JSONB)"
    ROW_LOCK = " FOR SHARE"  # a code being replaced is waited for, then read anew

    def __init__(self, url: str, pool_size: int = 4, connect_timeout_s: float = 10.0) -> None:
        try:
            import psycopg_pool  # noqa: F401 - a clear message when it is missing
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

        def setup(conn) -> None:
            conn.execute(schema("postgresql"))
            if not conn.execute(HAS_LEARNER_ID).fetchall():
                _migrate(conn)
            if not conn.execute(HAS_DIAGNOSIS).fetchall():
                _migrate_diagnosis(conn)
            conn.execute(INDEXES)

        try:
            self._pool = open_pool(url, "gradebook", _SCHEMA_LOCK_KEY, setup, pool_size,
                                   connect_timeout_s)
        except Exception as exc:
            raise GradebookError(f"cannot open the PostgreSQL gradebook at {redact(url)}: "
                                 f"{type(exc).__name__}: {exc}") from exc

    def _run(self, sql: str, params: tuple, fetch: bool = True) -> list[tuple]:
        """One statement in its own transaction, committed before this returns."""
        import psycopg
        from psycopg_pool import PoolTimeout

        try:
            # The pool's context manager commits when the block ends without an exception
            # (and rolls back otherwise).
            with self._pool.connection(timeout=self.borrow_timeout_s) as conn:
                cur = conn.execute(sql, params)
                return cur.fetchall() if fetch else []
        except PoolTimeout:
            # No connection was borrowed, so nothing ran. After an outage the pool retries
            # with growing back-off; the server may be back already, so try once directly.
            pass
        with psycopg.connect(self.url, connect_timeout=max(1, int(self.timeout_s))) as conn:
            cur = conn.execute(sql, params)  # committed when the block closes
            return cur.fetchall() if fetch else []

    def _insert(self, sub: Submission) -> int:
        from psycopg.types.json import Jsonb

        params = (sub.learner, sub.exercise, sub.code, sub.score, sub.max_score, Jsonb(sub.tests),
                  sub.status, sub.submitted_at, sub.grader_version, sub.learner_id,
                  sub.mistakes_text(), sub.stage, sub.stage_zh)
        try:
            rows = self._run(
                "INSERT INTO submissions (learner, exercise, code, score, max_score, tests, "
                "status, submitted_at, grader_version, learner_id, mistakes, stage, stage_zh) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING id", params)
        except Exception as exc:
            raise GradebookError(f"could not store the submission: {type(exc).__name__}: {exc}") from exc
        return int(rows[0][0])

    def _query(self, sql: str, params: tuple = ()) -> list[tuple]:
        try:
            return self._run(sql.replace("?", "%s"), params)
        except Exception as exc:
            raise GradebookError(f"could not read the gradebook: {type(exc).__name__}: {exc}") from exc

    def _execute(self, sql: str, params: tuple = ()) -> None:
        try:
            self._run(sql.replace("?", "%s"), params, fetch=False)
        except Exception as exc:
            raise GradebookError(f"could not write to the gradebook: {type(exc).__name__}: {exc}") from exc

    def close(self) -> None:
        self._pool.close()

    def __repr__(self) -> str:
        return f"PostgresGradebook({redact(self.url)!r})"
