"""Which run cache the app uses: PostgreSQL when ``$DATABASE_URL`` names it (every replica shares
its finished runs), else files in ``$LAB_DATA_DIR/run_cache``; bounded by ``$LAB_RUN_CACHE_MB``.

Only this module imports the backends, so neither imports the other back (no gradio here).
"""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path

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
        from webapp.services.run_cache_pg import PostgresRunCache

        return PostgresRunCache(url, size)
    base = GradebookSettings.read("data_dir")  # the app's one data folder
    return FileRunCache(folder if folder is not None else base / "run_cache", size)


_LOCK = threading.Lock()
_DEFAULT: RunCache | None = None


def default_cache() -> RunCache | None:
    """The app's cache (opened on first use); None when LAB_RUN_CACHE=off or it cannot open."""
    global _DEFAULT
    if not WebSettings.read("run_cache"):
        return None
    with _LOCK:
        if _DEFAULT is None:
            try:
                _DEFAULT = open_run_cache()
            except Exception:  # noqa: BLE001 - no cache is slower, never broken
                log.exception("run cache unavailable: every run trains")
                return None
        return _DEFAULT

