"""Bounded memory per browser session: light kept runs, a cap on them, and an idle time-to-live
(no gradio; webapp.pages.session_release wires it to Gradio's State and unload event).

A trained Run holds its model, task data, trainer records and attention snapshots (~0.5-1 MB
for the defaults). A session keeps its last run (to explore it) and the runs it kept for
comparison; only the curves and the summary of a kept run are ever drawn again, so a kept run
drops everything else. After ``LAB_SESSION_TTL_S`` without a new value (default 30 min) Gradio
deletes a session's State; closing or reloading the tab releases it at once.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

MAX_KEPT = 8  # LAB_MAX_KEPT_RUNS: kept runs per session; the oldest goes first
SESSION_TTL_S = 1800.0  # LAB_SESSION_TTL_S


def _env(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    value = float(raw) if raw else default
    if not value > 0:
        raise ValueError(f"{name} must be a positive number, got {raw!r}")
    return value


def session_ttl_s() -> float:
    """Seconds a session's trained model and kept runs live after their last change."""
    return _env("LAB_SESSION_TTL_S", SESSION_TTL_S)


def max_kept() -> int:
    return int(_env("LAB_MAX_KEPT_RUNS", MAX_KEPT))


@dataclass
class LightRun:
    """What the compare plot and table read from a kept run: no model, task or trainer."""

    task_name: str
    config: Any  # the run's ExperimentConfig (frozen in spirit: never changed after training)
    summary: dict
    model_name: str = "transformer"
    snapshots: list = field(default_factory=list)


def light_run(run: Any) -> LightRun:
    """A kept run without its weights, data and records (its history is kept beside it)."""
    return LightRun(run.task_name, run.config, dict(run.summary),
                    getattr(run, "model_name", "transformer"))  # fmt: skip


def cap_kept(kept: dict, limit: int | None = None) -> dict:
    """The newest ``limit`` kept runs (dicts keep insertion order: the oldest come first)."""
    limit = max_kept() if limit is None else limit
    items = list(kept.items())
    return dict(items[-limit:]) if len(items) > limit else dict(items)
