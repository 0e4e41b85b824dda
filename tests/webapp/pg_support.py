"""A real PostgreSQL server for the web app's tests (TEST_DATABASE_URL, as .ci/run sets it from
scripts/start_test_postgres.sh): skipped without one, a failure under CI=true without one."""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator
from urllib.parse import quote

import pytest


def postgres_url() -> str:
    url = os.environ.get("TEST_DATABASE_URL", "").strip()
    if url:
        return url
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail("CI=true but TEST_DATABASE_URL is unset (scripts/start_test_postgres.sh)",
                    pytrace=False)
    pytest.skip("PostgreSQL tests need TEST_DATABASE_URL "
                "(export TEST_DATABASE_URL=\"$(scripts/start_test_postgres.sh)\")")


@contextlib.contextmanager
def fresh_schema(prefix: str) -> Iterator[str]:
    """A URL whose connections see a schema of their own, dropped afterwards."""
    import psycopg

    base = postgres_url()
    schema = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield f"{base}{'&' if '?' in base else '?'}options={quote(f'-csearch_path={schema}')}"
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")
