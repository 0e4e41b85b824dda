"""Waits beside the training line: one run trained once, however many ask for it (no gradio).

A request for a run that another session is training right now (a *twin*) waits for that run
and replays it, instead of training it again. Its wait takes a place: twins count against the
training line's bounds per address and in all, and past them are refused with the line's own
message, so waiting twins cannot take the train pool's threads from everyone else (issue 29,
item 11: 180 twins held all 167 and a stranger's cached replay took 56 s instead of 0.3 s).
A full address's own run may take the place of a twin that comes after it in place order
(webapp.serving.turns): that twin is told to leave and replays the run later.

The admission desk (webapp.serving.wing.Serving.admit, kind "train") asks :meth:`Twins.room`
before the line; the Train service (webapp.train.train_queue) registers the runs it trains
(:meth:`Twins.training`) and waits as a twin (:meth:`Twins.wait_for`).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterator

from transformer_lab.message import Refusal, Refused
from webapp.i18n import both
from webapp.serving.turns import TurnQueue
from webapp.serving.who import ClientKey

POLL_S = 0.5  # how often a waiting twin re-reads its run's end (and the Stop flag)


def busy_message() -> dict[str, str]:
    return both("trainq.busy")


def group_of(client: ClientKey) -> str:
    """Whose places these are, as the training line counts them: the address, else the session."""
    return client.address or f"session:{client.session}"


class Twins:
    """The runs being trained (or waiting to) in this process, by key, and the twins waiting
    for them: places held beside ``line``'s own. Thread-safe (one lock for all of it)."""

    def __init__(self, line: TurnQueue) -> None:
        self.line = line
        self.lock = threading.Lock()
        self.runs: dict[str, threading.Event] = {}  # set when that run's training ends
        self.by_group: Counter[str] = Counter()  # waiting twins per address (else session)
        self.by_unit: Counter[str] = Counter()  # ... and per learner
        self.waits: dict[int, tuple[ClientKey, threading.Event]] = {}  # id -> client, told-to-go
        self.why: dict[int, str] = {}  # id -> the catalogue key its waiter is told when sent away

    # --- the desk's side ---------------------------------------------------------------------
    def room(self, client: ClientKey, twin: bool = False) -> tuple[Refusal | None, int | None]:
        """Why ``client`` may not take one more place (a ticket, or a twin's wait when ``twin``)
        with the twins' places counted beside the line's own, or None when it may; and, when its
        place is a waiting twin's, that wait's id, given back only once the line has let
        ``client`` in (:meth:`send_away`; third red team: a press the line then refused had
        evicted a twin for nobody). Lock held by the caller. Without twins waiting this adds
        nothing to the line's own admission."""
        line = self.line
        if not (twin or self.by_group):
            return None, None
        if twin and self.by_unit[client.unit]:
            return Refusal("learner_waiting", busy_message()), None
        group = group_of(client)
        here = self.by_group[group] + (sum(line.snapshot(client.address).values())
                                       if client.address else 0)
        leaving = None
        if here >= line.per_address and not twin and self.by_group[group]:
            leaving = self._twin_to_leave(client)
            here -= leaving is not None
        if here >= line.per_address:
            return line.full("address_full", here), None
        waiting = line.snapshot()["waiting"] + self.by_group.total() - (leaving is not None)
        if waiting >= line.max_waiting and leaving is None:
            # As a full line pushes out the heaviest address's newest ticket (turns.py), the
            # twins of an address holding at least two places more than this one's give one
            # up (red team, issue 28: 150 twins of three addresses refused a fourth's run).
            leaving = self._twin_of_heaviest(client)
            waiting -= leaving is not None
        if waiting >= line.max_waiting:
            return line.full("queue_full", waiting), None
        return None, leaving

    def _places(self, group: str) -> int:
        """Places ``group`` holds waiting: its twins and its tickets waiting in the line."""
        address = None if group.startswith("session:") else group
        return self.by_group[group] + (self.line.snapshot(address)["waiting"] if address else 0)

    def _twin_of_heaviest(self, client: ClientKey) -> int | None:
        """The newest twin of the address holding the most waiting places, when it holds at
        least two more than ``client``'s (lock held); None when no address is that heavy."""
        mine = self._places(group_of(client))
        heavy = max((g for g in self.by_group if g != group_of(client)), key=self._places,
                    default=None)
        if heavy is None or self._places(heavy) < mine + 2:
            return None
        newest = [i for i, (c, _) in self.waits.items() if group_of(c) == heavy][-1]
        self.why[newest] = "trainq.twin_pushed"
        return newest

    def _twin_to_leave(self, client: ClientKey) -> int | None:
        """The waiting twin of ``client``'s full address that comes after it in place order
        (first seen first, then less service), whose place ``client``'s own run may take; None
        when none does (lock held). Keys minted to wait as twins filled a class address's 50
        places (second red team, issue 29)."""
        ids = {id(c): i for i, (c, _) in self.waits.items()}
        last = self.line.after_in_place_order(client, [c for c, _ in self.waits.values()])
        return None if last is None else ids[id(last)]

    def send_away(self, wait_id: int) -> None:
        """The twin ``wait_id`` gives its place up and is told so (lock held)."""
        found = self.waits.pop(wait_id, None)
        if found is not None:
            client, moved = found
            self._forget(client)
            moved.set()

    def _forget(self, client: ClientKey) -> None:
        for counter, name in ((self.by_group, group_of(client)), (self.by_unit, client.unit)):
            counter[name] -= 1
            if counter[name] <= 0:
                del counter[name]

    # --- the Train service's side ------------------------------------------------------------
    def training(self, key: str) -> threading.Event | None:
        """Register run ``key`` as trained by the caller (lock held), unless another is already
        training it: the event to set when it ends (:meth:`done`), else None."""
        if key in self.runs:
            return None
        self.runs[key] = threading.Event()
        return self.runs[key]

    def done(self, key: str, mine: threading.Event) -> None:
        """Run ``key``'s training ended: its twins look in the cache now (or train)."""
        with self.lock:
            self.runs.pop(key, None)
        mine.set()

    def wait_for(self, key: str, client: ClientKey,
                 stopped: Callable[[], bool]) -> Iterator[None]:
        """Wait as a twin if run ``key`` is being trained here: yields once when the wait begins
        (so the caller can say so), returns when the run has ended; yields nothing when no such
        run trains. Raises Refused past the line's bounds (at once, with the line's message),
        when ``stopped()``, or when a classmate's own run took this place."""
        with self.lock:
            run = self.runs.get(key)
            if run is None:
                return
            refused, leaving = self.room(client, twin=True)
            if refused is not None:
                raise Refused(refused)
            moved = threading.Event()
            self.by_group[group_of(client)] += 1
            self.by_unit[client.unit] += 1
            self.waits[id(moved)] = (client, moved)
            self.line.see(client)
            if leaving is not None:  # a heavier address's twin gave this one its place
                self.send_away(leaving)
        try:
            yield None
            while not run.wait(POLL_S):
                if stopped():
                    raise Refused(Refusal("stopped", both("trainq.stopped")))
                if moved.is_set():  # a classmate's own run, or a lighter address, took it
                    with self.lock:
                        why = self.why.pop(id(moved), "trainq.twin_moved")
                    raise Refused(Refusal("twin_moved", both(why)))
        finally:
            with self.lock:
                self.why.pop(id(moved), None)
                if self.waits.pop(id(moved), None) is not None:  # else already given back
                    self._forget(client)
