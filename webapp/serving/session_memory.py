"""Bounded memory per browser session: light kept runs, a cap on them, and an idle time-to-live
(no gradio; webapp.serving.gradio_patch wires it to Gradio's State and unload event).

A trained Run holds its model, task data, trainer records and attention snapshots (~0.5-1 MB
for the defaults). A session keeps its last run (to explore it) and the runs it kept for
comparison; only the curves and the summary of a kept run are ever drawn again, so a kept run
drops everything else. After ``LAB_SESSION_TTL_S`` without a new value (default 30 min) Gradio
deletes a session's State; closing or reloading the tab releases it at once. The numbers are
fields of webapp.serving.settings.ServingSettings, read once with the others.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from dataclasses import dataclass, field
from typing import Any


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
                    getattr(run, "model_name", "transformer"))


RECORD_BYTES = 600  # one history record: a dict of about ten numbers (measured ~0.5 KB)
REFERENCE_BYTES = 8  # one list slot referring to a shared record or snapshot
RUN_OVERHEAD_BYTES = 4096  # the Run and its small objects


def tensor_bytes(value: Any, seen: set | None = None) -> int:
    """Bytes of the tensors in ``value`` (dicts, lists and tuples are walked), each storage once."""
    seen = set() if seen is None else seen
    if isinstance(value, dict):
        return sum(tensor_bytes(v, seen) for v in value.values())
    if isinstance(value, list | tuple):
        return sum(tensor_bytes(v, seen) for v in value)
    storage = getattr(value, "untyped_storage", None)
    if storage is None:
        return 0
    s = storage()
    ident = (s.data_ptr(), s.nbytes()) if s.data_ptr() else id(s)
    if ident in seen:
        return 0
    seen.add(ident)
    return int(s.nbytes())


def run_bytes(run: Any, shared_too: bool = False) -> int:
    """Estimated bytes a session holds by keeping ``run``: its model's tensors, attention
    snapshots and history records. A shared replayed run (``run.shared``: one copy for every
    session, webapp.services.training.SharedRuns) costs a session only its references, unless
    ``shared_too`` (what the shared copy itself holds)."""
    records, snaps = getattr(run, "records", []) or [], getattr(run, "snapshots", []) or []
    if getattr(run, "shared", False) and not shared_too:
        return RUN_OVERHEAD_BYTES + REFERENCE_BYTES * (len(records) + len(snaps))
    seen: set = set()
    model = getattr(run, "model", None)
    held = tensor_bytes(list(model.state_dict().values()), seen) if model is not None else 0
    return (RUN_OVERHEAD_BYTES + held + tensor_bytes(snaps, seen)
            + RECORD_BYTES * len(records))


def cap_kept(kept: dict, limit: int) -> dict:
    """The newest ``limit`` kept runs (dicts keep insertion order: the oldest come first);
    ``limit`` is ServingSettings.max_kept_runs."""
    items = list(kept.items())
    return dict(items[-limit:]) if len(items) > limit else dict(items)


def _libc():
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name) if name else None
    except OSError:
        return None


M_ARENA_MAX = -8  # glibc's mallopt parameter


def limit_malloc_arenas(arenas: int) -> bool:
    """Cap glibc's malloc arenas (ServingSettings.malloc_arenas, ``LAB_MALLOC_ARENAS``, default
    2; as MALLOC_ARENA_MAX=2).

    Each thread that allocates may get its own arena (up to 8 per core); the app's 64-wide
    pools then scatter short-lived per-request memory over many arenas that are rarely given
    back. False where the C library is not glibc or the cap is switched off."""
    if arenas < 1:  # LAB_MALLOC_ARENAS=0: glibc's own default (up to 8 per core)
        return False
    libc = _libc()
    if libc is None or not hasattr(libc, "mallopt"):
        return False
    return bool(libc.mallopt(M_ARENA_MAX, arenas))


def release_freed_memory() -> bool:
    """Give freed heap pages back to the system (glibc malloc_trim); False where unavailable."""
    libc = _libc()
    if libc is None or not hasattr(libc, "malloc_trim"):
        return False
    return bool(libc.malloc_trim(0))
