"""The Gradebook interface shared by both backends, and open_gradebook() that picks one."""

from __future__ import annotations

import json
import os
from abc import ABC, abstractmethod
from datetime import datetime
from pathlib import Path
from typing import Any

from grader.gradebook.csv_export import rows_to_csv
from grader.gradebook.model import BestScore, Submission, best_of

# Column order of every SELECT; _row() relies on it.
COLUMNS = ("id", "learner", "exercise", "code", "score", "max_score", "tests", "status",
           "submitted_at", "grader_version")
# The same columns without the two big ones, for score tables and CSV.
LIGHT_COLUMNS = ("id", "learner", "exercise", "'' AS code", "score", "max_score", "tests",
                 "status", "submitted_at", "grader_version")
DEFAULT_FILENAME = "gradebook.sqlite3"


class Gradebook(ABC):
    """Every graded submission, stored durably. Safe to share between threads.

    Backends implement three primitives: ``_insert`` (commit one row, return its id),
    ``_query`` (rows as tuples in ``COLUMNS`` order) and ``close``. ``?`` marks parameters.
    """

    backend: str = "?"

    @abstractmethod
    def _insert(self, sub: Submission) -> int: ...

    @abstractmethod
    def _query(self, sql: str, params: tuple = ()) -> list[tuple]: ...

    @abstractmethod
    def close(self) -> None: ...

    def __enter__(self) -> Gradebook:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing -----------------------------------------------------------------------------

    def record(self, sub: Submission) -> int:
        """Store one submission; returns its id only once the row is durable (committed)."""
        if not isinstance(sub, Submission):
            raise TypeError(f"record() takes a Submission, not {type(sub).__name__}")
        if sub.id is not None:
            raise ValueError(f"this submission is already stored (id {sub.id})")
        sub.__post_init__()  # re-check: fields may have been changed since construction
        return self._insert(sub)

    # -- reading -----------------------------------------------------------------------------

    def _select(self, where: str = "", params: tuple = (), order: str = "id",
                limit: int | None = None, light: bool = False) -> list[Submission]:
        cols = ", ".join(LIGHT_COLUMNS if light else COLUMNS)
        sql = f"SELECT {cols} FROM submissions"
        if where:
            sql += f" WHERE {where}"
        sql += f" ORDER BY {order}"
        if limit is not None:
            if not isinstance(limit, int) or limit < 0:
                raise ValueError(f"limit must be a non-negative integer, got {limit!r}")
            sql += f" LIMIT {limit}"
        return [_row(r) for r in self._query(sql, params)]

    def get(self, submission_id: int) -> Submission | None:
        """One stored submission with its code and per-test results, or None."""
        if isinstance(submission_id, bool) or not isinstance(submission_id, int):
            raise TypeError(f"a submission id is an integer, not {type(submission_id).__name__}")
        rows = self._select("id = ?", (submission_id,))
        return rows[0] if rows else None

    def history(self, learner: str, exercise: str | None = None,
                limit: int | None = None) -> list[Submission]:
        """A learner's submissions, newest first, with code (to reload one into the editor)."""
        if exercise is None:
            return self._select("learner = ?", (learner,), order="id DESC", limit=limit)
        return self._select("learner = ? AND exercise = ?", (learner, exercise),
                            order="id DESC", limit=limit)

    def best_scores(self, learner: str | None = None) -> list[BestScore]:
        """Best score per exercise for one learner, or per (learner, exercise) for everyone."""
        if learner is None:
            rows = self._select(light=True)
        else:
            rows = self._select("learner = ?", (learner,), light=True)
        return best_of(rows)

    def all_rows(self, include_code: bool = True) -> list[Submission]:
        """Every submission, oldest first."""
        return self._select(light=not include_code)

    def count(self, learner: str | None = None) -> int:
        """How many submissions are stored (for one learner, or in all)."""
        if learner is None:
            return int(self._query("SELECT COUNT(*) FROM submissions")[0][0])
        return int(self._query("SELECT COUNT(*) FROM submissions WHERE learner = ?",
                               (learner,))[0][0])

    def learners(self) -> list[str]:
        """Every learner who has submitted, sorted."""
        return [r[0] for r in self._query("SELECT DISTINCT learner FROM submissions ORDER BY learner")]

    def to_csv(self, include_code: bool = False) -> str:
        """Every submission as CSV text (header: id, learner, exercise, score, max_score, ...)."""
        return rows_to_csv(self.all_rows(include_code=include_code), include_code=include_code)


def _row(r: tuple) -> Submission:
    """A stored row as a Submission (tests may arrive as JSON text or, from Postgres, parsed)."""
    values: dict[str, Any] = dict(zip(COLUMNS, r, strict=True))
    if isinstance(values["tests"], str):
        values["tests"] = json.loads(values["tests"])
    if isinstance(values["submitted_at"], datetime):
        values["submitted_at"] = values["submitted_at"].isoformat()
    return Submission(**values)


def default_sqlite_path() -> Path:
    """``$LAB_DATA_DIR/gradebook.sqlite3``, with ``./data`` when the variable is unset."""
    return Path(os.environ.get("LAB_DATA_DIR") or "data") / DEFAULT_FILENAME


def open_gradebook(url: str | None = None, *, pool_size: int = 4,
                   connect_timeout_s: float = 10.0) -> Gradebook:
    """Open (and create if needed) the gradebook.

    ``url`` defaults to ``$DATABASE_URL``. ``postgresql://...`` (or ``postgres://``) opens a
    PostgreSQL gradebook with a pool of ``pool_size`` connections; ``sqlite:///relative.db``
    or ``sqlite:////absolute.db`` opens that SQLite file; no URL at all opens SQLite at
    :func:`default_sqlite_path`.
    """
    if url is None:
        url = os.environ.get("DATABASE_URL", "").strip() or None
    if url is None:
        from grader.gradebook.sqlite_store import SQLiteGradebook

        return SQLiteGradebook(default_sqlite_path())
    if not isinstance(url, str):
        raise TypeError(f"a database URL is text, not {type(url).__name__}")
    if url.startswith(("postgresql://", "postgres://")):
        from grader.gradebook.postgres_store import PostgresGradebook

        return PostgresGradebook(url, pool_size=pool_size, connect_timeout_s=connect_timeout_s)
    if url.startswith("sqlite:///") and len(url) > len("sqlite:///"):
        from grader.gradebook.sqlite_store import SQLiteGradebook

        return SQLiteGradebook(Path(url[len("sqlite:///"):]))
    scheme = url.split(":", 1)[0] if ":" in url else url[:20]
    raise ValueError(f"unsupported database URL scheme {scheme!r}: use postgresql://user:pass@host/db "
                     "or sqlite:///path/to/file.db (or leave DATABASE_URL unset for SQLite in "
                     "$LAB_DATA_DIR)")
