"""The process-wide fair queue in front of the grader: built once from the environment, the
ClientKey of a request, and running a grading in its turn (no gradio).

The queue's rules (one grading per session and per address, round-robin across addresses) are
in webapp/services/fairness.py; this module decides which queue the app uses and how many proxy
hops are trusted when reading a client's address (webapp/services/client_address.py).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from grader.gradebook.backends import shared_rate_limiter
from grader.gradebook.pg_tickets import shared_places
from webapp.services.client_address import client_address, default_hops, is_internal
from webapp.services.fairness import ClientKey, FairQueue, OnWait, Refused

log = logging.getLogger("transformer_lab.app")
T = TypeVar("T")


def run_in_turn(client: ClientKey | None, fn: Callable[[], T], on_wait: OnWait | None = None,
                count: bool = True) -> T | Refused:
    """``fn()`` once ``client`` has its turn in the process-wide queue, or why not."""
    ticket = settings().queue.admit(client, count)
    if isinstance(ticket, Refused):
        return ticket
    try:
        ticket.wait_turn(on_wait)
        return fn()
    finally:
        ticket.release()


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit() or int(raw) < 1:
        raise ValueError(f"{name} must be a positive integer, got {raw!r}")
    return int(raw)


@dataclass
class Settings:
    """The process-wide queue and how client addresses are read."""

    queue: FairQueue
    hops: int
    warned_private: bool = False  # said once that a proxy gave a private address


_LOCK = threading.Lock()
_SETTINGS: Settings | None = None


def settings() -> Settings:
    """Created on first use from the environment: LAB_GRADER_WORKERS (slots, default 2, as the
    grader), LAB_PER_ADDRESS (tickets per address, default 2), LAB_ADDRESS_RATE_LIMIT /
    LAB_RATE_WINDOW_S (accepted per address per window, default 30 per 60 s), LAB_FORWARDED_HOPS."""
    global _SETTINGS
    with _LOCK:
        if _SETTINGS is None:
            window = float(os.environ.get("LAB_RATE_WINDOW_S", "") or 60.0)
            limiter = shared_rate_limiter(_env_int("LAB_ADDRESS_RATE_LIMIT", 30), window,
                                          "address")  # PostgreSQL when DATABASE_URL: all replicas
            queue = FairQueue(_env_int("LAB_GRADER_WORKERS", 2), _env_int("LAB_PER_ADDRESS", 2),
                              limiter)
            queue.shared_places = shared_places(queue.per_address)  # PostgreSQL: all replicas
            _SETTINGS = Settings(queue, default_hops())
            log.info("fair queue: %d grading slots, %d tickets per address; client address = %s",
                     queue.slots, queue.per_address, "the peer (no trusted proxy)" if not
                     _SETTINGS.hops else f"X-Forwarded-For entry {_SETTINGS.hops} from the right")
        return _SETTINGS


def configure(queue: FairQueue | None = None, hops: int | None = None) -> Settings:
    """Replace the queue or the trusted hop count (tests, or an app with its own settings)."""
    current = settings()
    with _LOCK:
        if queue is not None:
            current.queue = queue
        if hops is not None:
            current.hops = hops
    return current


def client_key(session: str | None, peer: str | None,
               forwarded: Iterable[str] | str | None) -> ClientKey:
    """The ClientKey of a request, with the configured number of trusted proxies."""
    conf = settings()
    address = client_address(peer, forwarded, conf.hops)
    if conf.hops and address and not conf.warned_private and is_internal(address):
        # Behind a public proxy every visitor has a public address: a private one here means
        # one more proxy hop than configured, and everyone would share one address.
        conf.warned_private = True
        log.warning("X-Forwarded-For gave a private client address (%s) with %d trusted hop(s): "
                    "if the app sits behind one more proxy, set LAB_FORWARDED_HOPS", address,
                    conf.hops)
    return ClientKey(session or None, address)


def client_of_request(request: Any) -> ClientKey:
    """The ClientKey of a web request (a gr.Request, a Starlette request or None): its session
    hash, peer and every X-Forwarded-For line, in order."""
    if request is None:
        return ClientKey()
    headers = getattr(request, "headers", None) or {}
    getlist = getattr(headers, "getlist", None)
    forwarded = getlist("x-forwarded-for") if getlist else headers.get("x-forwarded-for")
    peer = getattr(getattr(request, "client", None), "host", None)
    return client_key(getattr(request, "session_hash", None), peer, forwarded)
