"""Gradebook fixtures: a fresh gradebook per test on SQLite and, when a server is given, PostgreSQL."""

from __future__ import annotations

import os
import uuid
from urllib.parse import quote

import pytest

from gradebook import open_gradebook

BACKENDS = ["sqlite", "postgresql"]


def postgres_url() -> str:
    """TEST_DATABASE_URL, a skip when it is unset off CI, a loud failure when unset on CI."""
    url = os.environ.get("TEST_DATABASE_URL", "").strip()
    if url:
        return url
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail("CI=true but TEST_DATABASE_URL is unset: .ci/run must start PostgreSQL with "
                    "scripts/start_test_postgres.sh and export TEST_DATABASE_URL", pytrace=False)
    pytest.skip("PostgreSQL tests need TEST_DATABASE_URL "
                "(export TEST_DATABASE_URL=\"$(scripts/start_test_postgres.sh)\")")


@pytest.fixture
def pg_url() -> str:
    """A URL whose connections see only a fresh, empty schema (dropped after the test)."""
    import psycopg

    base = postgres_url()
    schema = f"gradebook_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    sep = "&" if "?" in base else "?"
    yield f"{base}{sep}options={quote(f'-csearch_path={schema}')}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(params=BACKENDS)
def db_url(request, tmp_path) -> str:
    """A database URL for an empty gradebook, once per backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'gradebook.sqlite3'}"
    return request.getfixturevalue("pg_url")


@pytest.fixture
def book(db_url):
    """An open, empty gradebook on each backend."""
    with open_gradebook(db_url) as gb:
        yield gb
