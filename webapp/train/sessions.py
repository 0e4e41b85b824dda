"""What the Train page holds per browser session between requests: a stop flag for the run in
progress and the last finished run, and what a kept run is reduced to (no gradio).

A trained Run holds its model, task data, trainer records and attention snapshots (~0.5-1 MB
for the defaults). A session keeps its last run (to explore it) and the runs it kept for
comparison; only the curves and the summary of a kept run are ever drawn again, so a kept run
drops everything else (:class:`LightRun`). After ``LAB_SESSION_TTL_S`` without a new value
(default 30 min) Gradio deletes a session's State; closing or reloading the tab releases it at
once (webapp.serving.gradio_patch wires that).

Why a store and not gr.State: the Stop click is a different request from the training stream,
so the stream's flag must be found by session; and the multi-head explorer (another tab) shows
the model the session trained last. One store is made by the app (``app.build_demo``) and
handed to the Train page, the explorer and the session release on unload, so no page reaches
into another page's module globals.

Why per address: a session hash costs nothing to make, and a cached run replays in a second, so
one client could fill an app-wide bound with fresh sessions and push every other browser's
model out (red team 3, R3: 32 replays emptied the explorer). Each address keeps at most
``max_per_address`` last runs and gives way with its own oldest; when the whole store is full,
the address holding the most gives way. Runs idle for ``ttl_s`` (the session TTL) go too.

Counts alone do not bound memory: a run of the largest model holds ~33 MB, a default one
~0.1 MB. So the store also has a byte budget, in all (``max_bytes``) and per address
(``max_bytes_per_address``), enforced when a run is put: each run is charged what it holds of
its own (:func:`run_bytes`: weights, snapshots, records), and a cached
replay, which shares one read-only model with every session replaying it, only its references
(issue 29, item 7). A run larger than an address's whole budget is not kept.
"""

from __future__ import annotations

import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from webapp.serving.settings import ServingSettings


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
    session, webapp.train.training.SharedRuns) costs a session only its references, unless
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


MAX_SESSIONS = 64  # last runs kept at most (each holds a small model, ~0.5-1 MB)
MAX_PER_ADDRESS = 16  # of which one address holds at most (a classroom behind one NAT shares it)
MAX_BYTES = 512 * 2**20  # bytes those runs hold of their own, at most (the largest: ~33 MB)
MAX_BYTES_PER_ADDRESS = 128 * 2**20  # of which one address holds at most


@dataclass
class _Held:
    run: Any
    owner: str  # the address, else the session itself
    used: float  # last put or get (clock seconds)
    nbytes: int = 0  # what the run holds of its own (run_bytes)


class TrainSessions:
    """Thread-safe per-session stop flags and last runs: at most ``max_sessions`` last runs, at
    most ``max_per_address`` from one address, none idle longer than ``ttl_s``; the Train page
    keeps at most ``max_kept_runs`` runs per session to compare (both default to
    ServingSettings: LAB_SESSION_TTL_S and LAB_MAX_KEPT_RUNS; the app passes its settings).

    Stop flags are not bounded by count: one lives only while its run streams (``finish``
    removes it), and each browser session has at most one.
    """

    def __init__(self, max_sessions: int = MAX_SESSIONS, max_per_address: int = MAX_PER_ADDRESS,
                 ttl_s: float = ServingSettings.session_ttl_s,
                 max_kept_runs: int = ServingSettings.max_kept_runs,
                 clock: Callable[[], float] = time.monotonic, max_bytes: int = MAX_BYTES,
                 max_bytes_per_address: int = MAX_BYTES_PER_ADDRESS,
                 measure: Callable[[Any], int] = run_bytes) -> None:
        if min(max_bytes, max_bytes_per_address) < 1:
            raise ValueError("the byte budgets must be positive")
        self.max_bytes, self.max_bytes_per_address = int(max_bytes), int(max_bytes_per_address)
        self._measure = measure
        if max_sessions < 1:
            raise ValueError(f"max_sessions must be >= 1, got {max_sessions}")
        if max_per_address < 1:
            raise ValueError(f"max_per_address must be >= 1, got {max_per_address}")
        self.max_sessions, self.max_per_address = max_sessions, max_per_address
        if max_kept_runs < 1:
            raise ValueError(f"max_kept_runs must be >= 1, got {max_kept_runs}")
        self.ttl_s, self.max_kept_runs = float(ttl_s), int(max_kept_runs)
        self._clock = clock
        self._lock = threading.Lock()
        self._last: OrderedDict[str, _Held] = OrderedDict()  # least recently used first
        self._stops: dict[str, threading.Event] = {}

    # Last finished run: written by the Train page, read by the multi-head explorer.
    def get(self, session: str | None) -> Any | None:
        """The run ``session`` trained last, or None; reading it keeps it from expiring."""
        with self._lock:
            now = self._expire()
            held = self._last.get(session or "")
            if held is None:
                return None
            held.used = now
            self._last.move_to_end(session)
            return held.run

    def put(self, session: str | None, run: Any, address: str | None = None) -> bool:
        """Remember ``run`` as ``session``'s last run, filed under the caller's ``address``;
        past a bound (count or bytes), the address's own oldest runs go (or, when the store is
        full, the oldest runs of the address holding the most). False when nothing was kept: no
        session, or a run larger than an address's byte budget (the session's older run goes)."""
        if not session:
            return False  # no session (an API call): nobody could ask for it again
        owner = f"addr:{address}" if address else f"session:{session}"
        size = int(self._measure(run))  # outside the lock: it walks the run's tensors
        with self._lock:
            now = self._expire()
            self._last.pop(session, None)
            if size > self.max_bytes_per_address:
                return False
            self._last[session] = _Held(run, owner, now, size)
            while (sum(1 for h in self._last.values() if h.owner == owner) > self.max_per_address
                   or self._bytes_of(owner) > self.max_bytes_per_address):
                self._drop_oldest_of(owner)
            while len(self._last) > self.max_sessions:
                counts = Counter(h.owner for h in self._last.values())
                most = max(counts.values())
                # The least recently used run among the addresses holding the most.
                self._drop_oldest_of(next(h.owner for h in self._last.values()
                                          if counts[h.owner] == most))
            while sum(h.nbytes for h in self._last.values()) > self.max_bytes:
                held: Counter[str] = Counter()
                for h in self._last.values():
                    held[h.owner] += h.nbytes
                self._drop_oldest_of(held.most_common(1)[0][0])  # the address holding most bytes
            return session in self._last

    def _bytes_of(self, owner: str) -> int:
        return sum(h.nbytes for h in self._last.values() if h.owner == owner)

    def held_bytes(self, address: str | None = None) -> int:
        """Bytes charged to the runs held, in all or for one ``address``."""
        with self._lock:
            return sum(h.nbytes for h in self._last.values()
                       if address is None or h.owner == f"addr:{address}")

    def _drop_oldest_of(self, owner: str) -> None:
        """Drop ``owner``'s least recently used run (lock held)."""
        session = next(s for s, h in self._last.items() if h.owner == owner)
        del self._last[session]

    def _expire(self) -> float:
        """Drop runs idle past the TTL; the clock's now (lock held)."""
        now = self._clock()
        for session in [s for s, h in self._last.items() if now - h.used > self.ttl_s]:
            del self._last[session]
        return now

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
        """Sessions with a last run (idle ones expired first)."""
        with self._lock:
            self._expire()
            return len(self._last)
