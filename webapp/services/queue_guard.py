"""A bound on how many events one client may have waiting in Gradio's queue (no gradio import).

Why: Gradio's queue has one app-wide ``max_size``, counted over every pool, and nothing limits
how many of its places one client takes. Red team 5 (N5) kept about 64 slow calls waiting from
three sessions of one address, topping up as each finished: every other visitor's Submit, Train
and Compute was refused "Queue is full" for as long as it lasted. The fair queues of grading and
training (webapp.services.fairness) only see an event once Gradio runs it, so they cannot help.

``guard(queue)`` wraps the queue's ``push`` (what POST /gradio_api/queue/join calls): a new
event is refused, before it takes a place, when its client address already has
``per_address`` events waiting or its page session ``per_session``. Waiting means queued, not
running. The app-wide ``max_size`` can then be generous: filling it takes many addresses (IPv6
counts per /56, webapp.services.client_address). The refusal goes back as HTTP 503 with a
message in the browser's language.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from webapp.i18n import lang_of, tr

PER_ADDRESS = int(os.environ.get("LAB_QUEUE_PER_ADDRESS", "96"))  # a classroom behind one NAT: 30 page loads at once
PER_SESSION = int(os.environ.get("LAB_QUEUE_PER_SESSION", "16"))  # one tab: its page load queues about 10 events
MAX_SIZE = int(os.environ.get("LAB_QUEUE_MAX", "1024"))  # all clients together (a waiting event holds its inputs)


def address_of(request: Any) -> str | None:
    """The client address of a Starlette request, as the fair queues count it."""
    from webapp.services.grading_queue import client_of_request

    return client_of_request(request).address


def waiting(queue: Any) -> list[Any]:
    """The events queued and not yet running, over every pool."""
    return [e for q in queue.event_queue_per_concurrency_id.values() for e in q.queue]


def guard(queue: Any, per_address: int = PER_ADDRESS, per_session: int = PER_SESSION,
          address: Callable[[Any], str | None] = address_of) -> Any:
    """Wrap ``queue.push`` with the per-address and per-session bounds; returns the queue."""
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
        return ok, event_id, state

    queue.push = bounded_push
    queue.guarded = (per_address, per_session)
    return queue
