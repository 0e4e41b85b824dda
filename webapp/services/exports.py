"""CSV exports of the gradebook: private files (mode 0600 in a 0700 folder) that live a few
minutes; older ones and the web framework's copies of them are removed (no gradio)."""

from __future__ import annotations

import atexit
import os
import secrets
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from gradebook import Gradebook
from gradebook.csv_export import BOM, learners_to_csv
from webapp.settings import WebSettings

EXPORT_PREFIX = "lab-gradebook-export-"  # every export file's name starts so (and Gradio's copy)
EXPORT_TTL_S = WebSettings.read("export_ttl_s")  # an export lives 5 minutes (LAB_EXPORT_TTL_S)


class Exports:
    """One app's exports: a private folder (mode 0700, made on first use, removed at exit),
    the web framework's folders of copies to clean too, and how long an export lives."""

    def __init__(self, ttl_s: float = EXPORT_TTL_S) -> None:
        self.ttl_s = float(ttl_s)
        self._folder: Path | None = None
        self._lock = threading.Lock()
        self._served: dict[str, Callable[[], str | Path]] = {}  # where Gradio keeps its copies

    def folder(self) -> Path:
        """The private export folder (mode 0700), made once and removed at exit."""
        with self._lock:
            folder = self._folder
            if folder is None or not folder.is_dir():
                folder = Path(tempfile.mkdtemp(prefix="lab-exports-"))  # 0700, unguessable name
                self._folder = folder
                atexit.register(shutil.rmtree, folder, True)
                atexit.register(self.remove, 0.0)
            return folder

    def also_clean(self, folder: Callable[[], str | Path]) -> None:
        """Clean our exports' copies in ``folder()`` too: the page registers Gradio's file
        cache, which copies every file it serves into a subfolder of its own (asked at each
        cleaning)."""
        with self._lock:
            self._served[getattr(folder, "__qualname__", repr(folder))] = folder

    def _served_copies(self) -> list[Path]:
        return [p for folder in list(self._served.values())
                for p in Path(folder()).glob(f"*/{EXPORT_PREFIX}*.csv")]

    def remove(self, older_than_s: float | None = None) -> int:
        """Delete exports (ours and Gradio's copies) older than ``older_than_s`` (default
        ``ttl_s``); returns how many went."""
        older_than_s = self.ttl_s if older_than_s is None else older_than_s
        now, gone = time.time(), 0
        folder = self._folder
        paths = list(folder.glob(f"{EXPORT_PREFIX}*.csv")) if folder is not None else []
        for path in paths + self._served_copies():
            try:
                if now - path.stat().st_mtime >= older_than_s:
                    path.unlink()
                    gone += 1
                    if path.parent != folder:
                        path.parent.rmdir()  # Gradio's per-file folder, when now empty
            except OSError:
                continue  # already gone, or the folder holds something else
        return gone

    def csv_file(self, book: Gradebook, include_code: bool = False, per_learner: bool = False,
                 exercises: list[str] | None = None) -> str:
        """Every submission as CSV (mode 0600) in the private folder; returns its path.
        ``per_learner``: one line per learner instead, one column per exercise (best scores,
        in the order of ``exercises``; no code).

        Exports contain every learner's code: older ones (and Gradio's copies of them) are
        deleted at every export, by a timer ``ttl_s`` after each, and at exit.
        """
        self.remove()
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
        kind = "learners-" if per_learner else ""  # the spreadsheet's file reads apart
        path = self.folder() / f"{EXPORT_PREFIX}{kind}{stamp}-{secrets.token_hex(4)}.csv"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
            # Both files start with a byte-order mark (the per-learner text carries it): Excel
            # opened by double-click reads UTF-8, and so the Chinese columns, only with it.
            out.write(learners_to_csv(book.best_scores(), exercises or [],
                                      [(m.learner_id, m.name) for m in book.members()])
                      if per_learner else BOM + book.to_csv(include_code=include_code))
        timer = threading.Timer(self.ttl_s + 1.0, self.remove)
        timer.daemon = True
        timer.start()
        return str(path)
