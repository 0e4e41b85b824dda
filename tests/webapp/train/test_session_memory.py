"""Bounded memory per session: a session that trained holds its run until its tab closes, then
the app and Gradio give it back; kept runs are light and capped."""

from __future__ import annotations

import json
import time
import uuid

import httpx
import pandas as pd

from transformer_lab.experiments import ExperimentConfig
from webapp.train.sessions import LightRun, cap_kept, light_run

# The Train page's first inputs (task, heads, d_model, layers, d_ff, dropout, pe, steps); any
# later input keeps the page's default.
TINY_RUN = ["reverse", 2, 8, 1, 16, 0.0, "sinusoidal", 12]


def _train_as(app_url: str, session: str) -> dict:
    """Press Train on the page as browser session ``session`` (plain HTTP, as the page does)."""
    import app

    index, fn = next((i, fn) for i, fn in app.demo.fns.items()
                     if getattr(fn.fn, "__name__", "") == "on_train")
    data = [*TINY_RUN, *[c.value for c in fn.inputs[len(TINY_RUN):]]]
    base = app_url.rstrip("/")
    r = httpx.post(f"{base}/gradio_api/queue/join", json={
        "data": data, "fn_index": index, "session_hash": session, "event_data": None,
        "trigger_id": None}, timeout=30)
    r.raise_for_status()
    with httpx.stream("GET", f"{base}/gradio_api/queue/data", params={"session_hash": session},
                      timeout=120) as stream:
        for line in stream.iter_lines():
            if line.startswith("data:") and '"process_completed"' in line:
                return json.loads(line[5:])
    raise AssertionError("no answer")


def _held(session: str) -> tuple[bool, bool]:
    """(the Train page's last run in the app's TrainSessions, Gradio's session state holding a
    trained Run)."""
    import app
    from webapp.train.training import Run

    holder = app.demo.state_holder
    in_gradio = session in holder and any(
        isinstance(v, Run) for v in holder.session_data[session].state_data.values())
    return app.demo.train_sessions.get(session) is not None, in_gradio


def test_a_closed_tab_releases_its_trained_model(app_url):
    session = uuid.uuid4().hex[:11]
    done = _train_as(app_url, session)
    assert done["success"], done
    assert _held(session) == (True, True)  # kept while the tab is open
    other = uuid.uuid4().hex[:11]
    assert _train_as(app_url, other)["success"]
    # The tab's heartbeat connection ends (closed or reloaded): Gradio fires unload.
    with httpx.stream("GET", f"{app_url.rstrip('/')}/gradio_api/heartbeat/{session}",
                      timeout=10) as beat:
        next(beat.iter_lines())
    deadline = time.monotonic() + 60
    while _held(session) != (False, False) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert _held(session) == (False, False)
    assert _held(other) == (True, True)  # another learner's run is untouched


class _Run:
    task_name, model_name = "reverse", "transformer"
    config = ExperimentConfig(pe="none", heads=2, d_model=8)
    summary = {"steps": 3, "seconds": 0.1, "stopped": "max_steps"}
    model = object()  # what a kept run must not hold on to


def test_kept_runs_are_light_and_capped():
    kept = {}
    for i in range(12):
        kept = cap_kept({**kept, f"run {i}": {"history": pd.DataFrame(), "run": light_run(_Run())}},
                        limit=8)
    assert list(kept) == [f"run {i}" for i in range(4, 12)]
    light = kept["run 11"]["run"]
    assert isinstance(light, LightRun) and not hasattr(light, "model")
    assert light.summary == _Run.summary and light.config == _Run.config
    from webapp.train.view import compare_table

    table = compare_table(kept, "en")  # the compare table still reads everything it shows
    assert len(table) == 8 and table.iloc[0, 3] == 3


def test_a_session_keeps_its_state_but_no_copy_of_the_pages_configs_and_outputs(app_url):
    """Gradio's SessionState copies every component's config and every event's inputs and
    outputs per session (figures as JSON) for deep links the app does not offer; the app's
    sessions hold their State values only."""
    import app
    from webapp.serving.gradio_patch import _ORIGINAL, LightSessionState

    full = _ORIGINAL(app.demo)  # Gradio's own SessionState, for scale
    assert len(full.config_values) > 200  # every block of the app, per session
    session = uuid.uuid4().hex[:11]
    assert _train_as(app_url, session)["success"]
    held = app.demo.state_holder.session_data[session]
    assert isinstance(held, LightSessionState)
    assert held.config_values == {}  # no configs, no curves' JSON, no inputs
    assert _held(session) == (True, True)  # the trained Run is still the session's to explore
    r = httpx.get(f"{app_url.rstrip('/')}/gradio_api/deep_link", params={"session_hash": session},
                  timeout=30)
    assert r.status_code == 200  # the unused route still answers (an empty state)


def test_a_new_session_builds_no_copy_of_the_configs(monkeypatch):
    """A fresh page's first event used to build the config of every block (Gradio's own
    SessionState.__init__, ~19 ms here) and throw it away: a third of the app process's CPU
    when 300 learners submitted at once from fresh pages (py-spy, issue 17). Now nothing is
    built, and the session has every field Gradio's own has."""
    from gradio.blocks import BlocksConfig

    import app
    from webapp.serving.gradio_patch import _ORIGINAL, LightSessionState

    built = []
    original = BlocksConfig.config_for_block
    monkeypatch.setattr(BlocksConfig, "config_for_block",
                        staticmethod(lambda *a, **k: built.append(1) or original(*a, **k)))
    light = LightSessionState(app.demo)
    assert built == []
    full = _ORIGINAL(app.demo)
    assert built  # Gradio's own builds one per block
    assert set(vars(light)) == set(vars(full)) and light.config_values == {}
    assert (light.state_data, light._state_ttl, light.is_closed) == ({}, {}, False)
    assert light.STATE_TTL_WHEN_CLOSED == full.STATE_TTL_WHEN_CLOSED
    assert light.blocks_config is not app.demo.default_config  # a copy per session, as Gradio's


def test_freed_memory_is_returned_once_a_burst_pauses(monkeypatch):
    """A burst of drops trims at once and once more when the throttle's second is up, so what
    the rest of the burst freed is not held until some later event."""
    from webapp.serving import gradio_patch

    calls: list[float] = []
    monkeypatch.setattr(gradio_patch, "release_freed_memory", lambda: calls.append(time.monotonic()))
    monkeypatch.setattr(gradio_patch, "TRIM_EVERY_S", 0.3)
    monkeypatch.setattr(gradio_patch, "_LAST_TRIM", [0.0])
    monkeypatch.setattr(gradio_patch, "_TRIM_PENDING", [])
    start = time.monotonic()
    for _ in range(20):  # a burst: one trim now, one pending
        gradio_patch._trim_soon()
    assert len(calls) == 1
    deadline = time.monotonic() + 5
    while len(calls) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert len(calls) == 2 and calls[1] - start >= 0.29  # the trailing trim, after the throttle
    time.sleep(0.5)
    # One pending trim per burst, not one per call: never two within the throttle's time (an
    # app running in this process may trim too, so only the spacing is ours to assert).
    assert all(b - a >= 0.29 for a, b in zip(calls, calls[1:], strict=False)), calls
