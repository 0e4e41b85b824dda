"""Which storage a deployment uses: the gradebook opens on PostgreSQL when ``$DATABASE_URL``
names it (shared by every replica), else on SQLite.

The backends import their base classes; only this module imports the backends, so no module
of the gradebook imports one that imports it back.
"""

from __future__ import annotations

import os
from pathlib import Path

from gradebook.settings import GradebookSettings
from gradebook.store import DEFAULT_FILENAME, Gradebook


def default_sqlite_path() -> Path:
    """``$LAB_DATA_DIR/gradebook.sqlite3``, with ``./data`` when the variable is unset."""
    return GradebookSettings.read("data_dir") / DEFAULT_FILENAME


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
        from gradebook.sqlite_store import SQLiteGradebook

        return SQLiteGradebook(default_sqlite_path())
    if not isinstance(url, str):
        raise TypeError(f"a database URL is text, not {type(url).__name__}")
    if url.startswith(("postgresql://", "postgres://")):
        from gradebook.postgres_store import PostgresGradebook

        return PostgresGradebook(url, pool_size=pool_size, connect_timeout_s=connect_timeout_s)
    if url.startswith("sqlite:///") and len(url) > len("sqlite:///"):
        from gradebook.sqlite_store import SQLiteGradebook

        return SQLiteGradebook(Path(url[len("sqlite:///"):]))
    scheme = url.split(":", 1)[0] if ":" in url else url[:20]
    raise ValueError(f"unsupported database URL scheme {scheme!r}: use postgresql://user:pass@host/db "
                     "or sqlite:///path/to/file.db (or leave DATABASE_URL unset for SQLite in "
                     "$LAB_DATA_DIR)")
