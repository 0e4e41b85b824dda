"""Training turns: a cached run replays at once; any other run waits its turn in a fair queue,
seeing its position and an ETA, and is stored once it finishes (no gradio).

The train pool of the page is wide (many learners may *wait* in it), but only ``train_slots``
runs train at once (``LAB_TRAIN_SLOTS``, default 1: on 2 vCPUs a second run only halves both).
The line is the serving wing's training line (webapp.serving.turns, the same scheduler as
grading): one run per browser session, fair across addresses and within them, ETA from the
median of recent training times; a whole class behind one address waits, none is refused.
While the expected wait is long, the waiting message offers a shorter run with the same
settings that is already in the cache.

A replay shares one model: every session replaying a cached run holds the same read-only Run
(webapp.train.training.SharedRuns), never a copy of its own (issue 29, item 7). A request
for a run that another session is training right now (a twin) waits for that run instead of
training it again; its wait takes a place (webapp.serving.twins). Admission, for a run and for
a twin, is the serving wing's desk (``Serving.admit("train", client)``); this module only asks
it, then waits, trains, replays and stores.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from transformer_lab.message import Refusal, Refused
from webapp.i18n import both, tr
from webapp.services import run_cache
from webapp.serving import wing
from webapp.serving.turns import Ticket
from webapp.serving.who import ClientKey

if TYPE_CHECKING:
    from transformer_lab.experiments import ExperimentConfig

log = logging.getLogger("transformer_lab.app")

POLL_S = 0.5  # how often a waiting run re-reads its place (and the Stop flag)
SHORTER = (0.5, 0.25, 0.1)  # shorter runs looked up, as fractions of the asked steps
SHORTER_STEPS = (2000, 1500, 1000, 600, 300, 200, 100)  # and the page's usual step counts


def queue_message(position: int, eta_s: float, offer: int | None = None) -> dict[str, str]:
    """What a waiting learner sees: place, estimate, and a cached shorter run when offered."""
    eta = max(1, math.ceil(eta_s))
    text = both("trainq.position", position=position, eta=eta)
    if offer is not None:
        text = {lang: f"{line} {tr('trainq.offer', lang, offer=offer)}" for lang, line in text.items()}
    return text


def stopped_message() -> dict[str, str]:
    return both("trainq.stopped")


def same_run_message() -> dict[str, str]:
    return both("trainq.same_run")


def cached_shorter(config: ExperimentConfig, cache: run_cache.RunCache | None) -> int | None:
    """The longest cached run with the same settings but fewer steps, or None."""
    from webapp.train import train_config

    if cache is None:
        return None
    steps = config.steps
    wanted = {max(1, int(steps * f)) for f in SHORTER} | set(SHORTER_STEPS)
    for n in sorted((n for n in wanted if n < steps), reverse=True):
        try:  # the run the page would build for n steps (eval_every depends on steps)
            if cache.contains(run_cache.run_key(train_config.rechoose(config, steps=n))):
                return n
        except ValueError:
            continue
        except Exception:  # noqa: BLE001 - an offer is a nicety; the wait goes on without it
            return None
    return None


def run_or_replay(run: Any, stream: Callable[[Any], Iterator[dict]],
                  client: ClientKey | None = None,
                  cache: run_cache.RunCache | None = None,
                  serving: wing.Serving | None = None,
                  looked_up: bool = False) -> Iterator[dict]:
    """stream()'s messages for ``run`` (an webapp.train.training.Run, nothing trained yet).

    A cache hit replays the stored run at once (messages carry ``cached: True``). A miss waits
    for its turn, yielding ``{"queued": position, "eta_s": s, "message": {en, zh}}`` whenever
    its place changes, then trains through ``stream(run)``; a run that finishes (not stopped)
    is stored. Raises Refused (a second run from the same session; Stop while waiting).
    ``cache``: the app's run cache (None: none); ``serving``: whose training line (the app's,
    webapp.lab.Lab.serving; required).
    ``looked_up``: the caller has just missed in ``cache`` (it is not asked twice).
    """
    if serving is None:
        raise TypeError("run_or_replay needs serving= (the app's wing: webapp.lab.Lab.serving)")
    key = run_cache.run_key(run.config)
    total = run.trainer.cfg.steps
    entry = None
    if cache is not None and not looked_up:
        try:
            entry = cache.get(key)
        except Exception:  # noqa: BLE001 - a broken cache only costs the training time
            log.exception("run cache lookup failed")
    if entry is None and cache is not None:
        entry = yield from _join_same_run(key, run, cache, client, serving)
    if entry is not None:
        yield from run_cache.replay(entry, total)
        return
    ticket = serving.admit("train", client or ClientKey())  # one run per session; else a flood
    if isinstance(ticket, Refusal):
        raise Refused(ticket)
    twins = serving.twins
    mine = None
    if cache is not None:  # twins asking for this run wait for it (the first to ask trains it)
        with twins.lock:
            mine = twins.training(key)
    try:
        yield from _wait(ticket, run, cache, serving.settings.train_offer_s)
        entry = _lookup(cache, key)  # trained meanwhile (another replica, a finished twin)?
        if entry is not None:
            ticket.release()
            yield from run_cache.replay(entry, total)
            return
        ticket.used = True  # its turn, timed: the training time refines the line's ETA
        t0 = time.monotonic()
        last = None
        for last in stream(run):
            yield last
        log.info("trained %s in %.1f s (queue: %s)", run.task_name, time.monotonic() - t0,
                 serving.training.snapshot())
        ticket.release()  # the training time refines the queue's ETA
        if cache is not None and run.summary and last is not None and "summary" in last:
            try:  # run.summary is set: the caller applied the last message (weights, snapshots)
                cache.put(key, run_cache.entry_of(run))
            except Exception:  # noqa: BLE001 - storing is best effort
                log.exception("storing a run in the cache failed")
    finally:
        ticket.release()
        if mine is not None:  # twins waiting on this run look in the cache now (or train)
            twins.done(key, mine)


def _lookup(cache: run_cache.RunCache | None, key: str) -> run_cache.CachedRun | None:
    if cache is None:
        return None
    try:
        return cache.get(key)
    except Exception:  # noqa: BLE001 - a broken cache only costs the training time
        log.exception("run cache lookup failed")
        return None


def _join_same_run(key: str, run: Any, cache: run_cache.RunCache, client: ClientKey | None,
                   serving: wing.Serving):
    """If this very run is being trained here, wait for it as a twin (webapp.serving.twins;
    Stop gives up); its entry, or None. Past the line's bounds the wait is refused (Refused with
    the line's message) instead of waiting."""
    stop = run.trainer.stop
    waited = False
    for _ in serving.twins.wait_for(key, client or ClientKey(),
                                    lambda: stop is not None and stop.is_set()):
        waited = True
        yield {"queued": 0, "eta_s": 0.0, "offer": None, "message": same_run_message()}
    return _lookup(cache, key) if waited else None


def train_or_replay(config: ExperimentConfig, stream: Callable[[Any], Iterator[dict]],
                    client: ClientKey | None = None, stop: threading.Event | None = None,
                    cache: run_cache.RunCache | None = None,
                    serving: wing.Serving | None = None,
                    shared: Any = None) -> Iterator[tuple[dict, Any]]:
    """(message, run) as the Train page shows them, for the run ``config`` describes.

    A cached run (found now, or stored while this request waited: a twin, another replica)
    replays into the one read-only Run that every session replaying it shares (``shared``:
    a training.SharedRuns: the app's, webapp.lab.Lab.shared); nothing is built for the session.
    ``cache`` (None: none), ``serving`` and ``shared`` are the app's (webapp.lab.Lab). Any other
    run is built and goes through run_or_replay (its turn, training), each message applied to it.
    """
    from webapp.train import training

    if shared is None:
        raise TypeError("train_or_replay needs shared= (the app's: webapp.lab.Lab.shared)")
    key = run_cache.run_key(config)
    entry = _lookup(cache, key)
    if entry is not None:
        yield from _replay_shared(key, config, entry, shared)
        return
    run = training.new_run(config, stop)
    messages = run_or_replay(run, stream, client, cache, serving, looked_up=cache is not None)
    try:
        for msg in messages:
            if msg.get("cached") and (entry := _lookup(cache, key)) is not None:
                messages.close()  # gives its place back; the shared run replays instead
                yield from _replay_shared(key, config, entry, shared)
                return
            yield msg, (run if "queued" in msg else training.apply(run, msg))
    finally:
        messages.close()


def _replay_shared(key: str, config: ExperimentConfig, entry: run_cache.CachedRun,
                   shared: Any) -> Iterator[tuple[dict, Any]]:
    from webapp.train import training

    base = shared.get(key, config, entry)
    view = training.replay_view(base)  # the curves grow as the replay goes
    for msg in run_cache.replay(entry, base.trainer.cfg.steps):
        if "state" in msg:
            yield msg, base
        else:
            view.records.extend(msg["records"])
            view.snapshots.extend(msg.get("snapshots", []))
            yield msg, view


def _wait(ticket: Ticket, run: Any, cache: run_cache.RunCache | None,
          offer_after: float) -> Iterator[dict]:
    """Yield queue messages until the ticket's turn; Stop (the run's flag) gives the place up."""
    stop = run.trainer.stop
    last, offer, looked = None, None, False
    while True:
        pos = ticket.position()  # Refused when a full line gave the place to a lighter address
        if pos == 0:
            return
        if stop is not None and stop.is_set():
            raise Refused(Refusal("stopped", stopped_message()))
        eta = ticket.queue.eta_s(pos)
        if eta > offer_after and not looked:
            offer, looked = cached_shorter(run.config, cache), True
        if (pos, round(eta)) != last:
            last = (pos, round(eta))
            yield {"queued": pos, "eta_s": eta, "offer": offer,
                   "message": queue_message(pos, eta, offer)}
        ticket.queue.wait_change(ticket, POLL_S)


def cached_note(lang: str) -> str:
    """Appended to the finished status of a replayed run (in Chinese straight after the status's
    full stop: no ASCII space after full-width punctuation)."""
    return ("" if lang == "zh" else " · ") + tr("trainq.cached", lang)


def warm_presets(tasks: tuple[str, ...] = ("reverse", "sort", "translate"),
                 pes: tuple[str, ...] = ("sinusoidal", "none"),
                 cache: run_cache.RunCache | None = None,
                 serving: wing.Serving | None = None) -> list[tuple[str, str, int, bool]]:
    """Train (or find) each task's preset with and without positional encoding, and the page's
    first view, so the first learners get cache hits. Runs one at a time through the training
    queue like any learner. Returns (task, pe, steps, was_cached) per run."""
    from webapp.train import train_config, training

    wanted = [train_config.first_view()]
    wanted += [train_config.rechoose(train_config.page_preset(task), pe=pe)
               for task in tasks for pe in pes]
    done = []
    for c in wanted:
        run = training.new_run(c)
        cached = False
        for msg in run_or_replay(run, training.stream, ClientKey("run-cache-warm-up"), cache,
                                 serving):
            cached = cached or bool(msg.get("cached"))
            if "queued" not in msg:
                training.apply(run, msg)
        log.info("run cache warm-up: %s pe=%s %d steps (%s)", c.task, c.pe, c.steps,
                 "cached" if cached else "trained")
        done.append((c.task, c.pe, c.steps, cached))
    return done
