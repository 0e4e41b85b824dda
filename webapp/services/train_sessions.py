"""What the Train page holds per browser session between requests: a stop flag for the run in
progress and the last finished run (no gradio).

Why a store and not gr.State: the Stop click is a different request from the training stream,
so the stream's flag must be found by session; and the multi-head explorer (another tab) shows
the model the session trained last. One store is made by the app (``app.build_demo``) and
handed to the Train page, the explorer and the session release on unload, so no page reaches
into another page's module globals.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

MAX_SESSIONS = 32  # last runs kept at most; the oldest go first (each holds a small model)


class TrainSessions:
    """Thread-safe per-session stop flags and last runs; at most ``max_sessions`` last runs.

    Stop flags are not bounded by count: one lives only while its run streams (``finish``
    removes it), and each browser session has at most one.
    """

    def __init__(self, max_sessions: int = MAX_SESSIONS) -> None:
        if max_sessions < 1:
            raise ValueError(f"max_sessions must be >= 1, got {max_sessions}")
        self.max_sessions = max_sessions
        self._lock = threading.Lock()
        self._last: OrderedDict[str, Any] = OrderedDict()  # oldest first
        self._stops: dict[str, threading.Event] = {}

    # Last finished run: written by the Train page, read by the multi-head explorer.
    def get(self, session: str | None) -> Any | None:
        """The run ``session`` trained last, or None."""
        with self._lock:
            return self._last.get(session or "")

    def put(self, session: str | None, run: Any) -> None:
        """Remember ``run`` as ``session``'s last run; drop the oldest sessions past the bound."""
        if not session:
            return  # no session (an API call): nobody could ask for it again
        with self._lock:
            self._last.pop(session, None)
            self._last[session] = run
            while len(self._last) > self.max_sessions:
                self._last.popitem(last=False)

    # Stop flags: the training stream registers one, the Stop click sets it.
    def start(self, session: str | None) -> threading.Event:
        """A fresh stop flag for ``session``'s new run (it replaces an older run's flag)."""
        flag = threading.Event()
        if session:
            with self._lock:
                self._stops[session] = flag
        return flag

    def stop(self, session: str | None) -> bool:
        """Ask ``session``'s run in progress to stop; False when it has none."""
        with self._lock:
            flag = self._stops.get(session or "")
        if flag is None:
            return False
        flag.set()
        return True

    def finish(self, session: str | None, flag: threading.Event) -> None:
        """Forget ``flag`` once its run has ended, but only if it is still the session's own: a
        finished run's stream may close after the same browser's next run registered its flag."""
        with self._lock:
            if self._stops.get(session or "") is flag:
                del self._stops[session]

    def release(self, session: str | None) -> bool:
        """Drop everything held for ``session`` (its tab closed); True when something was held."""
        with self._lock:
            run = self._last.pop(session or "", None)
            flag = self._stops.pop(session or "", None)
        if flag is not None:
            flag.set()  # nobody is left to watch the run: let it end
        return run is not None or flag is not None

    def __len__(self) -> int:
        """Sessions with a last run."""
        with self._lock:
            return len(self._last)
