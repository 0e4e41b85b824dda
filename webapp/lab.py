"""The app's shared parts in one object, made once by app.py and handed to the pages (no gradio).

app.py is the composition root: it reads the settings, makes one :class:`Lab` and passes it
(or the part a page needs) to each page's ``build``; the handlers close over it. Nothing here is
a module-level default: a test makes its own Lab (or its own parts) and passes it the same way.
Making a Lab opens nothing: the serving wing (its limits' database), the gradebook and the run
cache open on first use, so ``import app`` opens no database.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from gradebook import Gradebook
from grader.api import Report
from webapp.services.exports import Exports
from webapp.services.key_stamps import SessionKeys
from webapp.services.run_cache import RunCache
from webapp.services.submissions import Submitter
from webapp.serving.wing import Serving
from webapp.settings import AppSettings
from webapp.train.sessions import TrainSessions

if TYPE_CHECKING:  # webapp.train.training imports torch: `import app` stays light
    from webapp.train.training import SharedRuns

log = logging.getLogger("transformer_lab.app")


class Lab:
    """One app's parts: its ``settings``; the serving wing (``serving``: turns and limits) and
    the ``submitter`` (grading into the gradebook), both made on first use; the Train
    ``sessions`` (each browser's last run) and the ``shared`` replayed runs; the run cache
    (``run_cache()``: opened on first use, None when off or unavailable); the gradebook
    ``exports``; the browser keys made per page session (``session_keys``)."""

    def __init__(self, settings: AppSettings | None = None, *, serving: Serving | None = None,
                 book: Gradebook | None = None,
                 grade: Callable[[str, str, str, str], Report] | None = None,
                 cache: RunCache | None | bool = True) -> None:
        """``serving``, ``book``, ``grade``: given parts (a test's), else made from ``settings``
        on first use; ``cache``: a given run cache, None for none, True to open the
        configured one on first use."""
        self.settings = settings or AppSettings()
        s = self.settings.serving
        self._lock = threading.RLock()
        self._serving = serving
        self._book, self._grade = book, grade
        self._submitter: Submitter | None = None
        self._cache, self._cache_open = (None, True) if cache is True else (cache, False)
        self.sessions = TrainSessions(ttl_s=s.session_ttl_s, max_kept_runs=s.max_kept_runs)
        self._shared: SharedRuns | None = None
        self.exports = Exports(self.settings.web.export_ttl_s)
        self.session_keys = SessionKeys()  # keys made for page sessions (webapp.pages.sign_in)

    @property
    def serving(self) -> Serving:
        """The serving wing, built from the settings on first use (it opens the limits)."""
        with self._lock:
            if self._serving is None:
                self._serving = Serving.build(self.settings.serving)
            return self._serving

    @property
    def submitter(self) -> Submitter:
        """The one submit path (webapp.services.submissions), made on first use."""
        with self._lock:
            if self._submitter is None:
                self._submitter = Submitter(self.serving, self._book, self._grade)
            return self._submitter

    @property
    def shared(self) -> SharedRuns:
        """The replayed runs every session shares (webapp.train.training), made on first use."""
        with self._lock:
            if self._shared is None:
                from webapp.train.training import SharedRuns

                self._shared = SharedRuns()
            return self._shared

    def run_cache(self) -> RunCache | None:
        """The run cache (opened on first use); None when LAB_RUN_CACHE=off or it cannot open."""
        if not self._cache_open or not self.settings.web.run_cache:
            return self._cache
        with self._lock:
            if self._cache is None and self._cache_open:
                from webapp.services.run_cache_backends import open_run_cache

                try:
                    self._cache = open_run_cache()
                except Exception:  # noqa: BLE001 - no cache is slower, never broken
                    log.exception("run cache unavailable: every run trains")
                    return None
            return self._cache
