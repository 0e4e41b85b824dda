"""Turns on a few workers, shared by many people: the one scheduler of grading and training (no
gradio).

The policy, in the order it wins when rules conflict:

1. **The learner is the unit of fairness, grouped by address.** A free worker goes to the
   address that has had the least service lately, and within it to the learner who has had
   the least; one learner's tickets run one at a time, in the order they were clicked.
   Service is grading *time* (a turn that took ``k`` × ``unit_s`` seconds costs ``k``), so
   submissions that run to the wall limit fall behind, and an address or learner that was
   idle joins level with the least-served one in line: idle time is not banked.
2. **Queue, don't refuse.** A classroom behind one address waits in line with its position
   and an ETA. Only a flood is refused: past ``per_address`` tickets of one address, past
   ``per_learner`` of one learner (and, in the submit path, past the rate limits of
   webapp.serving.limits). A full line (``max_waiting``) takes a newcomer whose address holds
   fewer places than the address holding the most, by pushing out that address's newest
   waiting ticket (its waiter is told why: ``Refused``, reason "pushed_out"): a few flooding
   addresses cannot fill the line against everyone else (red team 2026-12-03, R3: four addresses had refused them all).
   Inside an address the same holds between its learners: a full address takes a classmate
   who holds fewer places than its heaviest learner, whose newest waiting ticket goes (red
   team, issue 29, item 2: 67 sessions of one student held the class's 200 places and 11 of
   16 classmates were refused). A learner holding no place there also takes the place of the
   learner who comes after it in *place order* (first seen first, then less service): keys
   minted during a flood, one place each, give way to every classmate seen before them
   (second red team, issue 29: 205 minted one-place learners refused 30 of 30 classmates).
   The order is strict, so two learners never take a place back and forth. Among learners of equal service, the one holding fewer
   places goes first: a learner's own backlog is charged to that learner.
3. **Strangers cannot hurt each other.** A newcomer address joins level with the least-served
   address and wins ties against any address graded in the last ``RECENT_S``: it waits at most
   for the first running turn to end, whatever the other address's keys and backlog.

Thread-safe. The order of the whole line is recomputed once per change (O(n log n)), so each
waiting ticket reads its position in O(1).
"""

from __future__ import annotations

import heapq
import math
import statistics
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from transformer_lab.message import Refusal, Refused
from webapp.i18n import both
from webapp.serving.who import ClientKey, vouched_for

OnWait = Callable[[int, float], None]  # (position in the line, ETA in seconds); 0 = your turn


def queue_message(position: int, eta_s: float) -> dict[str, str]:
    """What a waiting learner sees: their place in the line and an estimate."""
    return both("queue.position", position=position, eta=max(1, math.ceil(eta_s)))


def grading_message() -> dict[str, str]:
    return both("queue.grading")


class Cancelled(RuntimeError):
    """The waiter gave up its place (its caller set the ``cancelled`` event)."""


@dataclass(eq=False)
class Ticket:
    """A place in the line. Use it as a context manager, or ``release()`` it (safe twice)."""

    queue: TurnQueue
    client: ClientKey
    seq: int
    group: str  # the address (or the session, when the address is unknown)
    unit: str  # the learner within it
    state: str = "waiting"  # waiting -> running -> done; waiting -> pushed (-> done)
    pushed_why: str = "queue.pushed_out"  # the catalogue key that says who took the place
    yields: bool = False  # starts only while no other ticket waits (a teacher's regrade)
    started: float | None = field(default=None, repr=False)
    used: bool = False  # its turn was taken (wait_turn returned): only then it is timed
    # What the admission desk counted for it (webapp.serving.wing.Serving.admit), given back
    # by refund() when it ends without being used (a rejected file, a cancelled Submit).
    give_back: Callable[[], None] | None = field(default=None, repr=False)
    # Set when its turn comes or it is released: a waiting thread sleeps on its own ticket, so a
    # change of the line wakes nobody (200 waiting threads woken on every turn cost a class
    # more CPU than its gradings).
    moved: threading.Event = field(default_factory=threading.Event, repr=False)

    def position(self) -> int:
        return self.queue.position(self)

    def wait_turn(self, on_wait: OnWait | None = None, poll_s: float = 1.0,
                  cancelled: threading.Event | None = None) -> None:
        self.queue.wait_turn(self, on_wait, poll_s, cancelled)

    def wait(self, on_wait: OnWait | None = None,
             cancelled: threading.Event | None = None) -> Refusal | None:
        """Block until its turn: None when it has come; else why not, as a Refusal: pushed out
        of a full line ("pushed_out": what the desk counted stays counted, as for any turn
        taken), or ``cancelled`` set before its turn ("cancelled": counted nothing, refunded).
        The caller still releases the ticket."""
        try:
            self.wait_turn(on_wait, cancelled=cancelled)
        except Refused as out:
            return out.refusal
        except Cancelled:
            pass
        else:
            if cancelled is None or not cancelled.is_set():
                return None
        self.refund()
        return Refusal("cancelled", both("submit.cancelled"))

    def release(self) -> None:
        self.queue.release(self)

    def refund(self) -> None:
        """Give back what the admission desk counted for this ticket (once)."""
        give_back, self.give_back = self.give_back, None
        if give_back is not None:
            give_back()

    def __enter__(self) -> Ticket:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.release()


class TurnQueue:
    """``slots`` turns at once over a fair line (see the module's policy)."""

    RECENT_S = 60.0  # an address or learner served this recently yields ties to one that was not

    def __init__(self, slots: int = 2, per_address: int = 200, per_learner: int = 3,
                 max_waiting: int = 2000, typical_s: float = 0.5, unit_s: float = 1.0,
                 clock: Callable[[], float] = time.monotonic, words: str = "queue") -> None:
        if min(slots, per_address, per_learner, max_waiting) < 1 or unit_s <= 0 or typical_s <= 0:
            raise ValueError("slots and the bounds must be >= 1, unit_s and typical_s > 0")
        self.slots, self.per_address, self.per_learner = slots, per_address, per_learner
        self.max_waiting, self.unit_s = max_waiting, float(unit_s)
        self._clock = clock
        self.words = words  # the catalogue's prefix of its refusals: "queue" (grading), "trainq"
        self._lock = threading.RLock()
        self._live: list[Ticket] = []  # waiting or running, in arrival order
        self._group_served: dict[str, float] = {}
        self._unit_served: dict[tuple[str, str], float] = {}
        self._ended: dict[object, float] = {}  # group or (group, unit) -> its latest turn's end
        # (group, unit) -> seq when first seen, in order of last activity (oldest first)
        self._first_seen: dict[tuple[str, str], int] = {}
        self._seq = 0
        self._version = 0
        self._order_cache: tuple[int, dict[Ticket, int]] = (-1, {})
        self._recent: deque[float] = deque([float(typical_s)] * 5, maxlen=25)

    @property
    def typical_s(self) -> float:
        """Median of recent turns (seconds): the unit of the ETA."""
        return statistics.median(self._recent)

    # --- joining and leaving -------------------------------------------------------------
    def admit(self, client: ClientKey | None, yields: bool = False) -> Ticket | Refusal:
        """A place in the line, or why not (nothing held when refused). A ticket that
        ``yields`` (a teacher's regrade) starts only while no other ticket waits: it never takes
        a learner's turn, even one who arrived after it (red team, issue 28)."""
        client = client or ClientKey()
        with self._lock:
            self._seq += 1
            group, unit = self._group_of(client), client.unit
            mine = [t for t in self._live if t.group == group]
            if sum(1 for t in self._live if t.unit == unit) >= self.per_learner:
                return Refusal("learner_waiting", both("queue.learner_full", n=self.per_learner))
            if len(mine) >= self.per_address and not self._push_out_within(group, unit):
                return self.full("address_full", len(mine))
            # counted after any push-out above (red team, issue 28: a stale count refused a
            # classmate after a place had been made for them)
            waiting = sum(1 for t in self._live if t.state == "waiting")
            if waiting >= self.max_waiting and not self._push_out(group):
                return self.full("queue_full", waiting)
            self._see(group, unit)
            self._join(group, unit)
            ticket = Ticket(self, client, self._seq, group, unit, yields=yields)
            self._live.append(ticket)
            self._changed()
            self._schedule()
            return ticket

    def full(self, reason: str, holding: int) -> Refusal:
        """Refused because ``holding`` places are taken ("address_full": one address's,
        "queue_full": the whole line's), with when a retry may succeed (the ETA of that place),
        in this line's words (grading or training). Also the twins' refusals (twins.py)."""
        wait = self.eta_s(holding)
        key = f"{self.words}.address_full" if reason == "address_full" else f"{self.words}.full"
        return Refusal(reason, both(key, n=holding, wait=max(1, math.ceil(wait))), wait)

    def _push_out(self, group: str) -> bool:
        """Make room for ``group`` in a full line (lock held): the address holding the most
        waiting places, when it holds at least two more than ``group``, gives up its newest
        waiting ticket. False when no address is that much heavier (``group`` is refused)."""
        counts: dict[str, int] = {}
        for t in self._live:
            if t.state == "waiting":
                counts[t.group] = counts.get(t.group, 0) + 1
        heaviest = max(counts, key=counts.get, default=None)
        if heaviest is None or counts[heaviest] < counts.get(group, 0) + 2:
            return False
        victim = max((t for t in self._live if t.group == heaviest and t.state == "waiting"),
                     key=lambda t: t.seq)
        self._evict(victim)
        return True

    def _push_out_within(self, group: str, unit: str) -> bool:
        """Make room in a full address for ``unit`` (lock held): its learner holding the most
        waiting places, when at least two more than ``unit``, gives up its newest waiting
        ticket. False when no learner there is that much heavier (``unit`` is refused)."""
        counts: dict[str, int] = {}
        for t in self._live:
            if t.group == group and t.state == "waiting":
                counts[t.unit] = counts.get(t.unit, 0) + 1
        mine = sum(1 for t in self._live if t.group == group and t.unit == unit)
        heaviest = max(counts, key=counts.get, default=None)
        if heaviest is None:
            return False
        if counts[heaviest] < mine + 2:
            if mine or not counts:
                return False
            # Place order: a learner with no place takes one from the learner after it.
            key = self._place_order(group)
            heaviest = max(counts, key=key)
            if key(heaviest) <= key(unit):
                return False
        victim = max((t for t in self._live if t.group == group and t.unit == heaviest
                      and t.state == "waiting"), key=lambda t: t.seq)
        self._evict(victim, f"{self.words}.pushed_out_class")
        return True

    def see(self, client: ClientKey) -> None:
        """Note ``client``'s learner as seen now, for place order, without a ticket (a wait
        kept beside the line: webapp.train.train_queue's twins)."""
        with self._lock:
            self._seq += 1
            self._see(self._group_of(client), client.unit)

    def after_in_place_order(self, client: ClientKey,
                             others: list[ClientKey]) -> ClientKey | None:
        """Of ``others`` (clients of ``client``'s address holding places beside the line), the
        one last in place order, when it comes after ``client``; else None."""
        with self._lock:
            group = self._group_of(client)
            key = self._place_order(group)
            mine = [o for o in others if self._group_of(o) == group]
            last = max(mine, key=lambda o: key(o.unit), default=None)
            return last if last is not None and key(last.unit) > key(client.unit) else None

    def _group_of(self, client: ClientKey) -> str:
        return client.address or (f"session:{client.session}" if client.session
                                  else f"ticket:{self._seq}")

    FIRST_SEEN_MAX = 100_000  # learners remembered; when full, the longest idle are forgotten

    def _see(self, group: str, unit: str) -> None:
        """Remember when ``unit`` was first seen, and that it is active now (lock held). A
        full table forgets the learners idle longest (not those in line): a classmate active
        in the lesson keeps their place in the order whatever keys a flood mints (second red
        team: forgetting the newest entries made every learner after the first 90,000 new)."""
        key = (group, unit)
        first = self._first_seen.pop(key, self._seq)
        if len(self._first_seen) >= self.FIRST_SEEN_MAX:
            live = {(t.group, t.unit) for t in self._live}
            idle = [k for k in self._first_seen if k not in live]  # least recently active first
            for old in idle[: max(1, len(self._first_seen) // 10)]:
                del self._first_seen[old]
        self._first_seen[key] = first  # moved to the end: the most recently active

    def _place_order(self, group: str) -> Callable[[str], tuple[int, int, float]]:
        """Where a unit of ``group`` stands for a place in its full address (lock held): a
        signed-in learner or class-list member (who.vouched_for) before anyone a flood could
        have minted (a classmate who arrives after a student started minting keys cannot be
        told from those keys otherwise: third red team, issue 29); then first seen first (a key minted during a flood comes after every classmate seen before it,
        however much grading that classmate has had), then less service (idle service is not
        banked). Service first let a fresh key, at the line's lowest service, overtake a
        classmate graded while the line was busy (second red team, issue 29)."""
        units = {t.unit for t in self._live if t.group == group}
        running = {t.unit for t in self._live if t.group == group and t.state == "running"}
        floor = min((self._unit_served.get((group, u), 0.0) - (u in running) for u in units),
                    default=0.0)

        def key(unit: str) -> tuple[int, int, float]:
            served = self._unit_served.get((group, unit), 0.0)
            level = served if unit in units else max(served, floor)
            return (0 if vouched_for(unit) else 1, self._first_seen.get((group, unit),
                                                                        self._seq + 1), level)
        return key

    def _evict(self, victim: Ticket, why: str | None = None) -> None:
        """Take a waiting ticket out of the line (lock held); its waiter is told (Refused)."""
        victim.state, victim.pushed_why = "pushed", why or f"{self.words}.pushed_out"
        self._live.remove(victim)
        victim.moved.set()
        self._changed()

    def _join(self, group: str, unit: str) -> None:
        """An idle group (or unit) joins level with the least-served one in line, counted as
        before its running turns began (start-time fair queueing's virtual time): a newcomer
        goes before the backlog of whoever is being served now (lock held)."""
        running: dict[object, int] = {}
        for t in self._live:
            if t.state == "running":
                running[t.group] = running.get(t.group, 0) + 1
                running[(t.group, t.unit)] = running.get((t.group, t.unit), 0) + 1
        active = {t.group for t in self._live}
        if group not in active:
            floor = min((self._group_served[g] - running.get(g, 0) for g in active), default=0.0)
            self._group_served[group] = max(self._group_served.get(group, 0.0), floor)
        units = {t.unit for t in self._live if t.group == group}
        if unit not in units:
            floor = min((self._unit_served[(group, u)] - running.get((group, u), 0)
                         for u in units), default=0.0)
            self._unit_served[(group, unit)] = max(self._unit_served.get((group, unit), 0.0),
                                                   floor)

    def release(self, ticket: Ticket) -> None:
        """Give the ticket back (its turn too); a used turn's time refines the ETA and costs its
        group and learner that many units."""
        with self._lock:
            if ticket.state == "pushed":  # already out of the line
                ticket.state = "done"
                return
            if ticket.state == "done":
                return
            if ticket.started is not None:
                now = self._clock()
                elapsed = max(now - ticket.started, 0.01)
                # The start charged 1; a turn costs its time (only a used one times the ETA).
                delta = max(1.0, elapsed / self.unit_s) - 1.0
                self._group_served[ticket.group] = self._group_served.get(ticket.group, 0) + delta
                key = (ticket.group, ticket.unit)
                self._unit_served[key] = self._unit_served.get(key, 0.0) + delta
                if ticket.used:
                    self._ended[ticket.group] = self._ended[key] = now
                    self._recent.append(elapsed)
            ticket.state = "done"
            ticket.moved.set()
            self._live.remove(ticket)
            self._forget()
            self._changed()
            self._schedule()

    def _forget(self) -> None:
        """Bound the bookkeeping (lock held): an idle line forgets everything; otherwise, when
        it has grown, entries that could no longer change an order go."""
        if not self._live:
            self._group_served.clear()
            self._unit_served.clear()
            self._ended.clear()
            return
        now = self._clock()
        if len(self._ended) > 4 * len(self._live) + 1024:  # its own bound (red team: 200,000)
            self._ended = {k: v for k, v in self._ended.items() if now - v < self.RECENT_S}
        if len(self._unit_served) < 4 * len(self._live) + 1024:
            return
        active = {t.group for t in self._live}
        floor = min(self._group_served[g] for g in active)
        self._ended = {k: v for k, v in self._ended.items() if now - v < self.RECENT_S}
        self._group_served = {g: s for g, s in self._group_served.items()
                              if g in active or s > floor}
        self._unit_served = {k: s for k, s in self._unit_served.items()
                             if k[0] in self._group_served}

    # --- order -----------------------------------------------------------------------------
    def _recent_end(self, key: object) -> int:
        ended = self._ended.get(key)
        return int(ended is not None and self._clock() - ended < self.RECENT_S)

    def _changed(self) -> None:
        self._version += 1

    def _order(self) -> dict[Ticket, int]:
        """Every waiting ticket's place (1 = next), as the scheduler would serve them if every
        turn cost one unit (lock held; cached until the next change)."""
        if self._order_cache[0] == self._version:
            return self._order_cache[1]
        per_unit: dict[tuple[str, str], deque[Ticket]] = {}
        for t in self._live:
            if t.state == "waiting":
                per_unit.setdefault((t.group, t.unit), deque()).append(t)
        units: dict[str, list] = {}
        for (g, u), tickets in per_unit.items():  # equal service: fewer places held first
            units.setdefault(g, []).append(
                [self._unit_served[(g, u)], self._recent_end((g, u)), len(tickets),
                 tickets[0].seq, u])
        groups = []
        for g, heap in units.items():
            heapq.heapify(heap)
            groups.append([self._group_served[g], self._recent_end(g), heap[0][3], g])
        heapq.heapify(groups)
        order: dict[Ticket, int] = {}
        while groups:
            entry = heapq.heappop(groups)
            g = entry[3]
            heap = units[g]
            unit = heapq.heappop(heap)
            tickets = per_unit[(g, unit[4])]
            order[tickets.popleft()] = len(order) + 1
            if tickets:
                unit[0] += 1.0
                unit[2], unit[3] = len(tickets), tickets[0].seq
                heapq.heappush(heap, unit)
            if heap:
                entry[0] += 1.0
                entry[2] = heap[0][3]
                heapq.heappush(groups, entry)
        self._order_cache = (self._version, order)
        return order

    def _schedule(self) -> None:
        """Start waiting tickets while a slot is free, one turn per learner, from whichever
        address they come (lock held)."""
        while sum(1 for t in self._live if t.state == "running") < self.slots:
            busy = {t.unit for t in self._live if t.state == "running"}
            order = self._order()
            nxt = min((t for t in order if t.unit not in busy),
                      key=lambda t: (t.yields, order[t]), default=None)
            if nxt is None:
                return
            nxt.state, nxt.started = "running", self._clock()
            nxt.moved.set()
            self._group_served[nxt.group] += 1.0
            self._unit_served[(nxt.group, nxt.unit)] += 1.0
            self._changed()

    # --- waiting ---------------------------------------------------------------------------
    def position(self, ticket: Ticket) -> int:
        """0 once its turn has come (or it is done); else its place in the line (1 = next).
        Raises Refused ("pushed_out") when a full line gave its place to a lighter address."""
        with self._lock:
            if ticket.state == "pushed":
                raise Refused(Refusal("pushed_out", both(ticket.pushed_why), self.typical_s))
            if ticket.state != "waiting":
                return 0
            return self._order().get(ticket, 1)

    def eta_s(self, position: int) -> float:
        """Seconds before a ticket at ``position`` starts. Each slot frees when its running turn
        ends: a turn younger than the typical one is expected to last that long; one already
        older is expected to run as long again (learners saw "about 1 s" beside two 9 s
        gradings, for 8 s). A free slot counts as a turn just started. Then every turn ahead
        takes the typical time, on whichever slot frees first."""
        if position <= 0:
            return 0.0
        typical, now = self.typical_s, self._clock()
        with self._lock:
            ages = [max(now - t.started, 0.0) for t in self._live
                    if t.state == "running" and t.started is not None]
        free = sorted([typical - a if a < typical else a for a in ages[:self.slots]]
                      + [typical] * max(0, self.slots - len(ages)))
        for _ in range(position - 1):  # the turns ahead, each on the first slot to free
            heapq.heapreplace(free, free[0] + typical)
        return max(free[0], 0.0)

    def wait_change(self, ticket: Ticket, timeout_s: float) -> None:
        """Block until ``ticket``'s turn comes (or it is released) or ``timeout_s`` passes."""
        ticket.moved.wait(timeout_s)

    def wait_turn(self, ticket: Ticket, on_wait: OnWait | None = None,
                  poll_s: float = 1.0, cancelled: threading.Event | None = None) -> None:
        """Block until ``ticket`` may run. While it waits, ``on_wait(position, eta_s)`` when its
        place or rounded ETA changed since the last call, read every ``poll_s`` (so a long line
        costs one read per waiting ticket per ``poll_s``, not one per turn); once its turn
        comes, ``on_wait(0, 0.0)`` (only if it had to wait). Raises Cancelled once
        ``cancelled`` is set (read every ``poll_s``): the caller releases the ticket."""
        last = None
        while True:
            if ticket.state == "done":
                raise RuntimeError("wait_turn() on a released ticket")
            if cancelled is not None and cancelled.is_set():
                raise Cancelled("cancelled while waiting")
            pos = self.position(ticket)
            if pos == 0:
                ticket.used = True
                if on_wait is not None and last is not None:
                    on_wait(0, 0.0)
                return
            eta = self.eta_s(pos)
            if on_wait is not None and (pos, round(eta)) != last:
                last = (pos, round(eta))
                on_wait(pos, eta)
            self.wait_change(ticket, poll_s)

    def snapshot(self, address: str | None = None) -> dict[str, int]:
        """Tickets running and waiting, in all or from one ``address``."""
        with self._lock:
            live = [t for t in self._live if address is None or t.client.address == address]
            running = sum(1 for t in live if t.state == "running")
            return {"running": running, "waiting": len(live) - running}
