"""Per-session memory in Gradio: release a session when its tab closes, and keep no copy of the
page's components per session (the app offers no deep links).

Gradio keeps a closed session's State for an hour (in case the tab comes back); a reload makes
a new session anyway, so the trained model, kept runs and the Train page's entries in the
app's TrainSessions store (last run, stop flag) of the closed session are dropped at once here.

Gradio 6.31's SessionState also builds, for every session, the config of every component of
the app (264 blocks: ~420 KB) and then writes every input and output value of every event into
it (plotly figures as JSON, submitted code): ~0.7 MB per learner in a class's mix. Its only
reader is the ``/gradio_api/deep_link`` route (gr.DeepLinkButton), which this app does not
offer; LightSessionState drops that copy, so a session holds its State values only.
"""

from __future__ import annotations

import logging
import threading
import time

import gradio as gr
from gradio import state_holder

from webapp.services.session_memory import (
    light_sessions_enabled,
    limit_malloc_arenas,
    release_freed_memory,
)
from webapp.services.train_sessions import TrainSessions

log = logging.getLogger("transformer_lab.app")
_ORIGINAL = state_holder.SessionState


class LightSessionState(_ORIGINAL):
    """Gradio's SessionState without its per-session copy of component configs and values."""

    def __init__(self, blocks) -> None:
        super().__init__(blocks)
        self.config_values = {}  # the deep-link copy: built by Gradio, dropped at once

    def __setitem__(self, key: int, value) -> None:
        super().__setitem__(key, value)  # State values and updated components stay
        self.config_values.pop(key, None)

    def _update_config(self, key: int) -> None:
        """Deep links only: nothing kept."""

    def _update_value_in_config(self, key: int, value) -> None:
        """Deep links only: the event's inputs and outputs are not copied into the session."""


def light_sessions(enabled: bool = True) -> None:
    """Make Gradio build LightSessionState for new sessions (process-wide; False restores)."""
    state_holder.SessionState = LightSessionState if enabled else _ORIGINAL


def release(blocks: gr.Blocks, session: str | None, sessions: TrainSessions) -> bool:
    """Drop everything the app (``sessions``: the Train page's store) and Gradio hold for
    ``session``; True when something was held."""
    if not session:
        return False
    held = sessions.release(session)
    holder = getattr(blocks, "state_holder", None)
    if holder is not None and session in holder:
        holder.delete_state(session)  # every gr.State value of the session (runs, models)
        with holder.lock:
            held = holder.session_data.pop(session, None) is not None or held
            holder.time_last_used.pop(session, None)
    return held


_TRIM_LOCK = threading.Lock()
_LAST_TRIM = [0.0]
TRIM_EVERY_S = 5.0  # closed tabs come in bursts (a class leaving): return memory once per burst


def _trim_soon() -> None:
    with _TRIM_LOCK:
        if time.monotonic() - _LAST_TRIM[0] < TRIM_EVERY_S:
            return
        _LAST_TRIM[0] = time.monotonic()
    release_freed_memory()


def attach(blocks: gr.Blocks, sessions: TrainSessions) -> None:
    """Call inside ``with blocks:``: light sessions, fewer malloc arenas (before the server's
    threads start), and on unload the session is released (from Gradio and from ``sessions``)
    and freed memory returned."""
    light_sessions(light_sessions_enabled())
    limit_malloc_arenas()

    def on_unload(request: gr.Request) -> None:
        try:
            if release(blocks, getattr(request, "session_hash", None), sessions):
                _trim_soon()
        except Exception:  # noqa: BLE001 - cleanup must never break the server
            log.exception("releasing a session failed")

    blocks.unload(on_unload)
