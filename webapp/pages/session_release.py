"""Release a browser session's memory when its tab closes or reloads (Gradio's unload event).

Gradio keeps a closed session's State for an hour (in case the tab comes back); a reload makes
a new session anyway, so the trained model, kept runs and the Train page's last-run entry of
the closed session are dropped at once here.
"""

from __future__ import annotations

import logging

import gradio as gr

log = logging.getLogger("transformer_lab.app")


def release(blocks: gr.Blocks, session: str | None) -> bool:
    """Drop everything the app and Gradio hold for ``session``; True when something was held."""
    from webapp.pages import train

    if not session:
        return False
    held = train._LAST.pop(session, None) is not None
    holder = getattr(blocks, "state_holder", None)
    if holder is not None and session in holder:
        holder.delete_state(session)  # every gr.State value of the session (runs, models)
        with holder.lock:
            held = holder.session_data.pop(session, None) is not None or held
            holder.time_last_used.pop(session, None)
    return held


def attach(blocks: gr.Blocks) -> None:
    """Call inside ``with blocks:``: on unload, release the session."""

    def on_unload(request: gr.Request) -> None:
        try:
            release(blocks, getattr(request, "session_hash", None))
        except Exception:  # noqa: BLE001 - cleanup must never break the server
            log.exception("releasing a session failed")

    blocks.unload(on_unload)
