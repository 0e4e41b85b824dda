"""Fair admission to the grader: one grading per browser session and per client address, served
round-robin across addresses, with queue position and ETA for whoever waits (no gradio).

Why: the grader has a few workers and each job may run to its wall limit. Keyed on a typed name
(free to change), one client could fill every worker and the whole queue. Here each *address*
holds at most ``per_address`` tickets (one grading, the rest waiting their turn) and each browser
session one; the next free worker goes to the waiting ticket with the smallest start tag
(start-time fair queueing with unit cost), so a newcomer waits for at most one job of a flooding
address per worker, never for its whole backlog. A classroom behind one NAT shares an address:
LAB_PER_ADDRESS lets more of it wait (still one grading at a time per address).

This module is the queue itself; the process-wide queue built from the environment, and how a
request becomes a ClientKey, are in webapp/services/grading_queue.py. Client addresses (which
X-Forwarded-For entry is trusted, and why): webapp/services/client_address.py.
"""

from __future__ import annotations

import math
import statistics
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from grader.gradebook import RateLimiter, wait_message
from webapp.i18n import both

OnWait = Callable[[int, float], None]  # (position in the queue, ETA in seconds); 0 = grading now


@dataclass(frozen=True)
class ClientKey:
    """Who is submitting, as far as the server can tell: the browser session and the address."""

    session: str | None = None
    address: str | None = None


def already_grading_message(scope: str, retry_after_s: float) -> dict[str, str]:
    """Refusal of a second submission while one from the same session or address is in flight."""
    wait = max(1, math.ceil(retry_after_s))
    if scope == "session":
        return both("queue.session_busy")
    return both("queue.address_full", wait=wait)


def queue_message(position: int, eta_s: float) -> dict[str, str]:
    """What a waiting learner sees: their place in the queue and an estimate."""
    eta = max(1, math.ceil(eta_s))
    return both("queue.position", position=position, eta=eta)


def grading_message() -> dict[str, str]:
    return both("queue.grading")


@dataclass(frozen=True)
class Refused:
    """Admission refused: ``reason`` code, bilingual ``message``, seconds after which to retry."""

    reason: str
    message: dict[str, str]
    retry_after_s: float | None = None


@dataclass(eq=False)
class Ticket:
    """A place in the fair queue; ``release()`` it exactly once (safe to call again)."""

    queue: FairQueue
    client: ClientKey
    seq: int
    tag: float  # start tag: smaller starts first
    state: str = "waiting"  # waiting -> running -> done
    started: float | None = field(default=None, repr=False)
    used: bool = False  # its turn was taken (wait_turn returned): only then it times a grading
    lease: str | None = field(default=None, repr=False)  # its place in shared_places, if any
    flow: str = ""  # whose turns it shares: the address, else the session
    learner: str | None = None  # whose submission (a rate key), if the caller said

    def position(self) -> int:
        return self.queue.position(self)

    def wait_turn(self, on_wait: OnWait | None = None, poll_s: float = 1.0) -> None:
        self.queue.wait_turn(self, on_wait, poll_s)

    def release(self) -> None:
        self.queue.release(self)


class FairQueue:
    """Tickets per session/address, a grading turn per worker, round-robin across addresses.

    Thread-safe. ``slots``: gradings at once (the grader's workers). ``per_address``: tickets one
    address may hold (one grading, the rest waiting); one per session. ``address_limiter``: an
    accepted-submissions-per-window limit per address (a typed name costs nothing to change).

    Turns are shared by grading *time*, not by count (start-time fair queuing): a grading that
    took ``k`` × ``unit_s`` seconds costs its address ``k`` turns, so addresses that keep the
    workers busy with submissions running to the wall limit fall behind, and an address with
    no recent grading starts ahead of them.
    """

    RECENT_S = 60.0  # a flow graded this recently yields ties to one that was not

    def __init__(self, slots: int = 2, per_address: int = 2,
                 address_limiter: RateLimiter | None = None, typical_s: float = 0.5,
                 clock: Callable[[], float] = time.monotonic, unit_s: float = 1.0) -> None:
        if slots < 1 or per_address < 1 or unit_s <= 0:
            raise ValueError("slots and per_address must be >= 1, unit_s > 0")
        self.slots, self.per_address, self.unit_s = slots, per_address, float(unit_s)
        self.address_limiter = address_limiter
        # Optional (grader.gradebook.pg_tickets): the address's places counted across replicas.
        self.shared_places = None
        self._clock = clock
        self._cond = threading.Condition()
        self._live: list[Ticket] = []  # waiting or running, in arrival order
        self._finish: dict[str, float] = {}  # per flow: finish tag of its latest ticket
        self._served: dict[str, float] = {}  # per flow: when its latest grading ended
        self._vtime = 0.0  # tag of the latest ticket to start
        self._seq = 0
        self._recent: deque[float] = deque([float(typical_s)] * 5, maxlen=25)

    @property
    def typical_s(self) -> float:
        """Median of recent grading turns (seconds): the unit of the ETA."""
        return statistics.median(self._recent)

    def admit(self, client: ClientKey | None, count: bool = True,
              learner: str | None = None) -> Ticket | Refused:
        """A ticket in the queue, or why not (nothing is counted when refused; ``count=False``
        leaves the address's rate limit alone, for runs that store nothing). ``learner``: whose
        submission it is (a rate key), for :meth:`in_flight_for`."""
        client = client or ClientKey()
        with self._cond:
            live = self._live
            if client.session and any(t.client.session == client.session for t in live):
                return Refused("already_grading", already_grading_message("session", 0))
            lease = None
            if client.address:
                mine = [t for t in live if t.client.address == client.address]
                if len(mine) >= self.per_address:
                    retry = len(mine) * self.typical_s
                    return Refused("already_grading", already_grading_message("address", retry),
                                   retry)
                lease = places.acquire(f"addr:{client.address}") if (places := self.shared_places) else None
                if places is not None and lease is None:  # its places are taken on other replicas
                    return Refused("already_grading",
                                   already_grading_message("address", self.typical_s), self.typical_s)
                if count and (refused := self.charge(client)) is not None:
                    if places is not None:
                        places.release(lease)
                    return refused
            self._seq += 1
            flow = client.address or client.session or f"ticket:{self._seq}"
            # Virtual time = the smallest start tag in service: a flow that has had no turn
            # lately starts level with the gradings running now, ahead of the backlogs.
            running = [t.tag for t in live if t.state == "running"]
            now = min(running) if running else self._vtime
            tag = max(now, self._finish.get(flow, 0.0))
            self._finish[flow] = tag + 1.0
            ticket = Ticket(self, client, self._seq, tag)
            ticket.lease, ticket.flow, ticket.learner = lease, flow, learner
            live.append(ticket)
            self._schedule()
            return ticket

    def charge(self, client: ClientKey | None) -> Refused | None:
        """Count one accepted submission against the client's address limit, or why not (nothing
        is counted then). The submit path charges only once the busy gate has admitted it."""
        if client is None or not client.address or self.address_limiter is None:
            return None
        ok, wait = self.address_limiter.check(f"addr:{client.address}")
        if ok:
            return None
        lim = self.address_limiter
        return Refused("rate_limited", wait_message(wait, lim.per_learner, lim.window_s), wait)

    def alone(self, ticket: Ticket) -> bool:
        """True when no other live ticket shares ``ticket``'s flow (its address, else session)."""
        with self._cond:
            return self._alone(ticket)

    def _alone(self, ticket: Ticket) -> bool:
        return not any(t is not ticket and t.flow == ticket.flow for t in self._live)

    def newcomer(self, ticket: Ticket) -> bool:
        """True when ``ticket`` is alone in its flow and that flow had no grading end in the last
        ``RECENT_S``. Alone is not enough: a flooder keeping one ticket in flight per address is
        alone at every resubmission, and 16 such addresses held every place (red team 5, N1)."""
        with self._cond:
            return self._alone(ticket) and not self._recent_flow(ticket.flow)

    def _recent_flow(self, flow: str) -> bool:
        """True when a grading of ``flow`` ended in the last ``RECENT_S`` (lock held)."""
        served = self._served.get(flow)
        return served is not None and self._clock() - served < self.RECENT_S

    def in_flight_for(self, learner: str | None) -> bool:
        """True while a submission of ``learner`` (a rate key given to :meth:`admit`) is in
        flight. The submit path charges a busy refusal to that learner's own quota then: it is
        a retry of someone already served a place. Charging the address instead (as before)
        let one NAT classroom's single clicks in a busy spell use up its quota (red team 5, N4)."""
        if not learner:
            return False
        with self._cond:
            return any(t.learner == learner for t in self._live)

    def _schedule(self) -> None:
        """Start waiting tickets while a slot is free (lock held)."""
        while True:
            running = [t for t in self._live if t.state == "running"]
            if len(running) >= self.slots:
                return
            busy = {t.client.address for t in running if t.client.address}
            ready = [t for t in self._live if t.state == "waiting" and t.client.address not in busy]
            if not ready:
                return
            nxt = min(ready, key=self._order)
            nxt.state, nxt.started = "running", self._clock()
            self._vtime = max(self._vtime, nxt.tag)
            self._cond.notify_all()

    def position(self, ticket: Ticket) -> int:
        """0 once grading; else 1 + the waiting tickets that start before it."""
        with self._cond:
            if ticket.state != "waiting":
                return 0
            key = self._order(ticket)
            return 1 + sum(1 for t in self._live
                           if t.state == "waiting" and self._order(t) < key)

    def _order(self, t: Ticket) -> tuple[float, int, int]:
        """Start order: smaller tag first; at equal tags a flow graded in the last minute waits
        behind one that was not (a newcomer goes before a flooder's next turn); then arrival."""
        return (t.tag, int(self._recent_flow(t.flow)), t.seq)

    def eta_s(self, position: int) -> float:
        """Seconds before a ticket at ``position`` starts: rounds of ``slots`` gradings."""
        return math.ceil(position / self.slots) * self.typical_s if position > 0 else 0.0

    def wait_turn(self, ticket: Ticket, on_wait: OnWait | None = None,
                  poll_s: float = 1.0) -> None:
        """Block until ``ticket`` may grade; ``on_wait(position, eta_s)`` on every change while
        it waits, and ``on_wait(0, 0.0)`` once its turn comes (only if it had to wait)."""
        last = None
        while True:
            with self._cond:
                if ticket.state == "done":
                    raise RuntimeError("wait_turn() on a released ticket")
                pos = self.position(ticket)  # 0 once its turn has come
                eta = self.eta_s(pos)
            if pos == 0:
                ticket.used = True
                if on_wait is not None and last is not None:
                    on_wait(0, 0.0)
                return
            if on_wait is not None and (pos, round(eta)) != last:
                last = (pos, round(eta))
                on_wait(pos, eta)
            with self._cond:
                if ticket.state == "waiting":
                    self._cond.wait(poll_s)

    def release(self, ticket: Ticket) -> None:
        """Give the ticket back (its turn too); the grading time refines the ETA."""
        with self._cond:
            if ticket.state == "done":
                return
            cost = 0.0  # it never started (refused while waiting: busy, rate limit): no turn
            if ticket.started is not None:
                elapsed = max(self._clock() - ticket.started, 0.01)
                cost = max(1.0, elapsed / self.unit_s)
                if ticket.used:  # a grading, not a refusal right after admission: time it
                    self._served[ticket.flow] = self._clock()
                    self._recent.append(elapsed)
            # A turn costs its time (admission charged 1): the flow's later tickets move back
            # by the difference, or forward when it had no turn at all.
            delta = cost - 1.0
            if delta and ticket.flow in self._finish:
                self._finish[ticket.flow] += delta
                for t in self._live:
                    if t.flow == ticket.flow and t.state == "waiting" and t.seq > ticket.seq:
                        t.tag += delta
            ticket.state = "done"
            if ticket.lease is not None and self.shared_places is not None:
                self.shared_places.release(ticket.lease)
            self._live.remove(ticket)
            if not self._live:  # idle: forget the tags, so memory stays bounded
                self._finish.clear()
                self._served.clear()
                self._vtime = 0.0
            self._schedule()
            self._cond.notify_all()

    def snapshot(self, address: str | None = None) -> dict[str, int]:
        """Tickets grading and waiting, in all or from one ``address``."""
        with self._cond:
            live = [t for t in self._live if address is None or t.client.address == address]
            running = sum(1 for t in live if t.state == "running")
            return {"running": running, "waiting": len(live) - running}
