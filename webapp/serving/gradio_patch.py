"""The one module that touches Gradio's internals (private names, non-public submodules). Each
patch is listed in ``PATCHES`` and checked by :func:`check_internals`, which a test runs: a
Gradio upgrade that changes what is patched fails that test loudly, naming the patch.

1. ``queue.push`` (what POST /gradio_api/queue/join calls) is wrapped: one client address and
   one tab hold at most a bounded share of Gradio's queue (red team N5).
2. ``state_holder.SessionState`` is replaced by :class:`LightSessionState` (no per-session copy
   of every component's config), and a closed tab's state is dropped at once.
3. Every ``BlockFunction`` gets its queue pool (``concurrency_id`` / ``concurrency_limit``) and
   hidden-progress events show their progress on one hidden sink.
4. ``queue.send_message`` is wrapped: a finished event's result that nobody reads is dropped
   after a while, and only a few are kept per session and in all (:class:`UnreadResults`).
5. ``gr.Slider.preprocess`` takes a value past either end as that end (:func:`clamp_sliders`).

Per-session memory in Gradio: release a session when its tab closes, and keep no copy of the
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

import asyncio
import copy
import datetime
import inspect
import logging
import os
import re
import threading
import time
from collections.abc import Callable
from typing import Any

import gradio as gr
from gradio import state_holder
from gradio.blocks import BlockFunction
from gradio.queueing import Event, Queue
from gradio.server_messages import ProcessCompletedMessage

from webapp.i18n import lang_of, tr
from webapp.serving.memory import limit_malloc_arenas, release_freed_memory
from webapp.serving.settings import ServingSettings
from webapp.train.sessions import TrainSessions

log = logging.getLogger("transformer_lab.app")
_ORIGINAL = state_holder.SessionState


# What Gradio 6.31's SessionState.__init__ sets; LightSessionState sets the same, without
# building ``config_values`` (PATCHES checks the list against Gradio's own source).
SESSION_FIELDS = {"blocks_config", "config_values", "state_data", "_state_ttl", "is_closed",
                  "STATE_TTL_WHEN_CLOSED"}


# Gradio 6.31's SessionState.__setitem__ after its import line; LightSessionState's repeats
# it without the last two lines (the deep-link copy's config).
SETITEM_LINES = [
    "block = self.blocks_config.blocks.get(key)",
    "if isinstance(block, State):",
    "self._state_ttl[key] = (",
    "block.time_to_live,",
    "datetime.datetime.now(),",
    ")",
    "self.state_data[key] = value",
    "else:",
    "self.blocks_config.blocks[key] = value",
    "if block:",
    "self.config_values[key] = self.blocks_config.config_for_block(",
]


class LightSessionState(_ORIGINAL):
    """Gradio's SessionState without its per-session copy of component configs and values.

    Gradio's own __init__ builds that copy first (the config of every block: ~10 ms of the
    event loop's thread per new session, a third of the app process's CPU when 300 learners
    submitted at once from fresh pages, measured with py-spy), so it is not called: the same
    fields are set here, the deep-link copy left empty."""

    def __init__(self, blocks) -> None:  # no super().__init__: see the class docstring
        self.blocks_config = copy.copy(blocks.default_config)
        self.config_values = {}  # the deep-link copy: never built
        self.state_data = {}
        self._state_ttl = {}
        self.is_closed = False
        self.STATE_TTL_WHEN_CLOSED = 1 if os.getenv("GRADIO_IS_E2E_TEST", None) else 3600

    def __setitem__(self, key: int, value) -> None:
        """As Gradio's (a State's value and its time to live, else the updated component), but
        without building that block's config for the deep-link copy."""
        block = self.blocks_config.blocks.get(key)
        if isinstance(block, gr.State):
            self._state_ttl[key] = (block.time_to_live, datetime.datetime.now())
            self.state_data[key] = value
        else:
            self.blocks_config.blocks[key] = value

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


# Module-level on purpose (issue 28): malloc_trim returns the *process's* freed heap to the
# system, so its throttle is one per process, like the heap it trims (apps built in one process
# share it). It is not an app's state: the unload handler (attach) and the results dropped inside
# Gradio's patched queue (drop_unread) both ask it.
_TRIM_LOCK = threading.Lock()
_LAST_TRIM = [0.0]
_TRIM_PENDING: list[threading.Timer] = []
TRIM_EVERY_S = 1.0  # closed tabs and dropped results come in bursts: at most one trim a second


def _trim_soon() -> None:
    """Return freed heap memory to the system: now, or, within ``TRIM_EVERY_S`` of the last
    trim, once that time is up (a trailing trim; one at most is pending). A burst of dropped
    results used to trim once at its start and keep what the rest of it freed until some later
    event (+175 MB for 120 large unread results, returned only by the next sweep)."""
    with _TRIM_LOCK:
        wait = _LAST_TRIM[0] + TRIM_EVERY_S - time.monotonic()
        if wait > 0:
            if not any(t.is_alive() for t in _TRIM_PENDING):
                timer = threading.Timer(wait, _trim_soon)
                timer.daemon = True
                _TRIM_PENDING[:] = [timer]
                timer.start()
            return
        _LAST_TRIM[0] = time.monotonic()
    release_freed_memory()


def attach(blocks: gr.Blocks, sessions: TrainSessions, settings: ServingSettings) -> None:
    """Call inside ``with blocks:``: light sessions, fewer malloc arenas (before the server's
    threads start), as ``settings`` say, and on unload the session is released (from Gradio and
    from ``sessions``) and freed memory returned."""
    light_sessions(settings.light_sessions)
    limit_malloc_arenas(settings.malloc_arenas)

    def on_unload(request: gr.Request) -> None:
        try:
            if release(blocks, getattr(request, "session_hash", None), sessions):
                _trim_soon()
        except Exception:  # noqa: BLE001 - cleanup must never break the server
            log.exception("releasing a session failed")

    blocks.unload(on_unload)


# --- patch 1: a bounded share of Gradio's queue per client ---------------------------------

def waiting(queue: Any) -> list[Any]:
    """The events queued and not yet running, over every pool."""
    return [e for q in queue.event_queue_per_concurrency_id.values() for e in q.queue]


def guard(queue: Any, per_address: int, per_session: int,
          address: Callable[[Any], str | None]) -> Any:
    """Patch 1: wrap ``queue.push`` so a new event is refused, before it takes a place, when
    its client ``address(request)`` already has ``per_address`` events waiting (queued, not
    running) or its page session ``per_session``. The refusal goes back as HTTP 503 with a
    message in the browser's language. Returns the queue."""
    if per_address < 1 or per_session < 1:
        raise ValueError(f"queue bounds must be >= 1, got {per_address} and {per_session}")
    push = queue.push
    owners: dict[str, str | None] = {}  # event id -> its client's address, read once at its join

    def owner(event: Any) -> str | None:
        if event._id not in owners:
            owners[event._id] = address(event.request)
        return owners[event._id]

    async def bounded_push(body: Any, request: Any, username: Any) -> tuple:
        mine, session = address(request), getattr(body, "session_hash", None)
        queued = waiting(queue)
        if len(owners) > 2 * len(queued) + 64:  # forget events that left the queue
            keep = {e._id for e in queued}
            for gone in [i for i in owners if i not in keep]:
                del owners[gone]
        by_address = sum(1 for e in queued if mine and owner(e) == mine)
        by_session = sum(1 for e in queued if session and e.session_hash == session)
        if by_address >= per_address or by_session >= per_session:
            return False, tr("queue.client_full", lang_of(request), n=by_address), "queue_full"
        ok, event_id, state = await push(body=body, request=request, username=username)
        if ok and isinstance(event_id, str):
            owners[event_id] = mine
            pool = queue.event_ids_to_events[event_id].concurrency_id \
                if event_id in queue.event_ids_to_events else None
            if pool in queue.event_queue_per_concurrency_id:
                fair_order(queue.event_queue_per_concurrency_id[pool].queue, owner)
        return ok, event_id, state

    queue.push = bounded_push
    queue.guarded = (per_address, per_session)
    return queue


def fair_order(events: list, owner: Callable[[Any], str | None]) -> None:
    """Reorder one pool's waiting events, in place, round-robin by client address: every
    address's first waiting event, then every address's second, ... (arrival order within each
    round). Gradio serves a pool first come first served, so 500 events of one address kept a
    stranger's page waiting 40 s behind them (red team, issue 17); now it waits behind at most
    one event per other address. Gradio takes the front of this very list."""
    seen: dict[str | None, int] = {}
    keyed = []
    for i, event in enumerate(events):
        who = owner(event)
        rank = seen[who] = seen.get(who, -1) + 1
        keyed.append((rank, i, event))
    keyed.sort(key=lambda k: (k[0], k[1]))
    events[:] = [e for _, _, e in keyed]


def guard_blocks(blocks: gr.Blocks, per_address: int, per_session: int,
                 address: Callable[[Any], str | None]) -> Any:
    """:func:`guard` on the queue of ``blocks`` (call after ``blocks.queue(...)``)."""
    return guard(blocks._queue, per_address, per_session, address)


# --- patch 3: queue pools and the progress sink ----------------------------------------------

def assign_pools(blocks: gr.Blocks, pools: dict[str, int], sink: Any, default: str) -> None:
    """Every event of ``blocks`` in its named pool (unknown names: ``default``) with the pool's
    limit, and hidden-progress events showing their progress on ``sink``: Gradio 6.31 writes a
    hidden event's progress ("queue: 1/1 | 0.2s", in English) into every output at opacity 0,
    where screen readers and innerText read it."""
    for fn in blocks.fns.values():
        if fn.show_progress == "hidden" and not fn.show_progress_on:
            fn.show_progress_on = [sink]
        pool = fn.concurrency_id if fn.concurrency_id in pools else default
        fn.concurrency_id, fn.concurrency_limit = pool, pools[pool]


def upload_folder() -> str:
    """Where Gradio keeps its copies of served files (exports are deleted there too)."""
    from gradio.utils import get_upload_folder

    return get_upload_folder()


# --- patch 4: finished results nobody reads ------------------------------------------------

class UnreadResults:
    """Patch 4: a finished event's messages wait in its session's message queue
    (``Queue.pending_messages_per_session``, 2,000 sessions kept) until a stream reads them; a
    client that never reads kept them for good: 120 public ``positional`` calls from 40
    sessions, +287 MB RSS still held 20 s later (red team, issue 29, item 8). Wrapping
    ``queue.send_message``, each finished event is noted; one whose result is still unread
    after ``keep_s`` seconds, past the newest ``per_session`` of its session, or past the newest
    ``max_total`` of all sessions, is dropped with all its messages (oldest first). A reader
    that comes later finds no session (Gradio's "session not found"), as after a restart.

    A legitimate page or API client reads its result within milliseconds of its completion.
    The message queues are asyncio queues served on the event loop; this works there too (the
    sweep is a task on Gradio's loop), through their public methods only."""

    def __init__(self, queue: Any, keep_s: float, per_session: int, max_total: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if not keep_s > 0 or per_session < 1 or max_total < 1:
            raise ValueError(f"bad unread-result bounds: {keep_s} s, {per_session}, {max_total}")
        self.queue, self.keep_s = queue, float(keep_s)
        self.per_session, self.max_total, self.clock = per_session, max_total, clock
        self.finished: dict[str, tuple[str, float]] = {}  # event id -> (session, when); oldest first
        self.per: dict[str, int] = {}  # session -> its events in ``finished``
        self.dropped = 0  # events dropped unread so far (for tests and logs)
        self._sweeper: Any = None

    def wrap(self) -> Any:
        send = self.queue.send_message

        def send_message(event: Any, event_message: Any) -> None:
            send(event, event_message)
            if isinstance(event_message, ProcessCompletedMessage) \
                    and event_message.event_id == event._id:  # put (Gradio skips dead events)
                self.finished_event(event.session_hash, event._id)

        self.queue.send_message = send_message
        self.queue.unread_results = self
        return self.queue

    def finished_event(self, session: str, event_id: str) -> None:
        """Note a completion just put in ``session``'s queue; enforce the counts."""
        before = self.dropped
        self.finished[event_id] = (session, self.clock())
        self.per[session] = self.per.get(session, 0) + 1
        if self.per[session] > self.per_session:
            mine = [e for e, (s, _) in self.finished.items() if s == session]
            self.settle(session, mine, keep=self.per_session)
        while len(self.finished) > self.max_total:
            oldest, (session, _) = next(iter(self.finished.items()))
            self.settle(session, [oldest], keep=0)
        loop = asyncio.get_running_loop()
        if self.dropped > before:  # return the freed memory, off the event loop
            loop.run_in_executor(None, _trim_soon)
        self._start_sweeper(loop)

    def sweep(self) -> int:
        """Drop every noted event unread for longer than ``keep_s``; returns how many."""
        before, due, cutoff = self.dropped, {}, self.clock() - self.keep_s
        for event_id, (session, when) in self.finished.items():
            if when > cutoff:
                break
            due.setdefault(session, []).append(event_id)
        for session, events in due.items():
            self.settle(session, events, keep=0)
        return self.dropped - before

    def settle(self, session: str, events: list[str], keep: int) -> None:
        """Of ``events`` (oldest first) of ``session``: forget those read; drop the unread ones
        but the newest ``keep``."""
        messages = self.queue.pending_messages_per_session.get(session)
        held = _drain(messages) if messages is not None else []
        unread = {m.event_id for m in held if isinstance(m, ProcessCompletedMessage)}
        waiting = [e for e in events if e in unread]
        drop = set(waiting[:max(0, len(waiting) - keep)])
        for m in held:
            if m.event_id not in drop:
                messages.put_nowait(m)
        for event_id in events:
            if event_id not in unread or event_id in drop:
                self.finished.pop(event_id, None)
                self.per[session] = self.per.get(session, 1) - 1
        if self.per.get(session, 0) <= 0:
            self.per.pop(session, None)
        if not drop:
            return
        self.dropped += len(drop)
        ids = self.queue.pending_event_ids_session.get(session)
        if ids is not None:
            ids -= drop
            if not ids:  # as Gradio's clean_events leaves it
                self.queue.pending_event_ids_session.pop(session, None)
        if messages is not None and messages.empty() \
                and session not in self.queue.pending_event_ids_session:
            self.queue.pending_messages_per_session.pop(session, None)

    def _start_sweeper(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._sweeper is not None and not self._sweeper.done():
            return
        every = min(max(self.keep_s / 4, 0.05), 10.0)

        async def sweep_forever() -> None:
            while not self.queue.stopped:
                await asyncio.sleep(every)
                try:
                    if self.sweep():  # return the freed memory, off the event loop
                        await asyncio.get_running_loop().run_in_executor(None, _trim_soon)
                except Exception:  # noqa: BLE001 - the sweep must never stop the server
                    log.exception("dropping unread results failed")

        self._sweeper = loop.create_task(sweep_forever())


def _drain(messages: Any) -> list:
    """Every message of an asyncio queue, taken out (the caller puts back those it keeps)."""
    held = []
    while not messages.empty():
        held.append(messages.get_nowait())
    return held


def drop_unread(blocks: gr.Blocks, keep_s: float, per_session: int, max_total: int) -> Any:
    """:class:`UnreadResults` on the queue of ``blocks`` (call after ``blocks.queue(...)``,
    once); returns it."""
    if getattr(blocks._queue, "unread_results", None) is not None:
        return blocks._queue.unread_results
    results = UnreadResults(blocks._queue, keep_s, per_session, max_total)
    results.wrap()
    return results


# --- patch 5: a slider's value past an end is that end ----------------------------------------

_SLIDER_PREPROCESS = gr.Slider.preprocess


def _clamped_preprocess(self: gr.Slider, payload: Any) -> Any:
    """gr.Slider.preprocess of ``payload`` held within the slider's [minimum, maximum]."""
    if isinstance(payload, (int, float)) and not isinstance(payload, bool):
        if self.maximum is not None and payload > self.maximum:
            payload = self.maximum
        if self.minimum is not None and payload < self.minimum:
            payload = self.minimum
    return _SLIDER_PREPROCESS(self, payload)


def clamp_sliders() -> None:
    """Patch 5: every gr.Slider takes a value past either end as that end, as its own number box
    does on blur. The box sends each keystroke, so typing 120 under a snapshot slider's maximum
    of 12 raised Gradio's "Value 120 is greater than maximum value 12." in English on any page
    (issue 26, item 10); a number under the minimum half typed ("0" on the way to "0.5") did too."""
    gr.Slider.preprocess = _clamped_preprocess


# --- the loud check -----------------------------------------------------------------------

class GradioInternalsChanged(RuntimeError):
    """A Gradio upgrade changed something this module patches."""


def _has(obj: Any, *names: str) -> bool:
    return all(hasattr(obj, n) for n in names)


PATCHES: dict[str, Callable[[], bool]] = {
    "queue.push (per-client share of the queue)": lambda: (
        "self._queue" in inspect.getsource(gr.Blocks.queue) and
        list(inspect.signature(Queue.push).parameters)[1:] == ["body", "request", "username"]
        and inspect.iscoroutinefunction(Queue.push)
        and "event_queue_per_concurrency_id" in inspect.getsource(Queue.__init__)),
    "queued event fields (_id, session_hash, request, concurrency_id)": lambda: all(
        n in inspect.getsource(Event.__init__)
        for n in ("self._id", "self.session_hash", "self.request", "self.concurrency_id")),
    "a pool serves the front of EventQueue.queue (fair order by address)": lambda: (
        "first_event = event_queue.queue[0]" in inspect.getsource(Queue)
        and "self.event_ids_to_events" in inspect.getsource(Queue.__init__)),
    "state_holder.SessionState (light sessions)": lambda: (
        _has(state_holder, "SessionState")
        and _has(_ORIGINAL, "__setitem__", "_update_config", "_update_value_in_config")
        and set(re.findall(r"self\.(\w+)\s*(?::[^=]+)?=(?!=)",
                           inspect.getsource(_ORIGINAL.__init__))) == SESSION_FIELDS
        and "copy(blocks.default_config)" in inspect.getsource(_ORIGINAL.__init__)
        # __setitem__ as LightSessionState repeats it, with the config line last
        and [ln.strip() for ln in inspect.getsource(_ORIGINAL.__setitem__).splitlines()[3:14]
             if ln.strip()] == SETITEM_LINES),
    "StateHolder (release on unload)": lambda: (
        _has(state_holder.StateHolder, "delete_state")
        and all(n in inspect.getsource(state_holder.StateHolder)
                for n in ("self.session_data", "self.time_last_used", "self.lock"))),
    "gradio.utils.get_upload_folder (export clean-up)": lambda: callable(
        __import__("gradio.utils", fromlist=["get_upload_folder"]).get_upload_folder),
    "BlockFunction pools and progress": lambda: all(
        n in inspect.signature(BlockFunction.__init__).parameters
        for n in ("concurrency_id", "concurrency_limit", "show_progress", "show_progress_on")),
    "Queue.send_message and the per-session message queues (unread results dropped)": lambda: (
        list(inspect.signature(Queue.send_message).parameters)[1:] == ["event", "event_message"]
        and "self.send_message(" in inspect.getsource(Queue.process_events)
        and "self.pending_messages_per_session[event.session_hash]"
        in inspect.getsource(Queue.send_message)
        and all(n in inspect.getsource(Queue.__init__) for n in (
            "self.pending_messages_per_session", "self.pending_event_ids_session", "AsyncQueue"))
        and "event_id" in ProcessCompletedMessage.model_fields),
    "Slider.preprocess (a value past an end is that end)": lambda: (
        list(inspect.signature(_SLIDER_PREPROCESS).parameters) == ["self", "payload"]
        and "raise_if_out_of_bounds(payload, self.minimum, self.maximum)"
        in inspect.getsource(_SLIDER_PREPROCESS)),
}


def check_internals() -> list[str]:
    """The patches whose Gradio internals are no longer what this module expects (empty: all
    fine). Raise with :func:`require_internals`."""
    broken = []
    for name, ok in PATCHES.items():
        try:
            if not ok():
                broken.append(name)
        except Exception:  # noqa: BLE001 - a missing attribute is a change too
            broken.append(name)
    return broken


def require_internals() -> None:
    """GradioInternalsChanged naming each patch that no longer fits this Gradio."""
    if broken := check_internals():
        raise GradioInternalsChanged(
            f"gradio {gr.__version__} changed what webapp/serving/gradio_patch.py patches: "
            + "; ".join(broken))
