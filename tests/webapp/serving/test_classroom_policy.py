"""The serving policy's properties, played with a fake clock and turns of one unit each (issue 17):

1. the learner is the unit, grouped by address; 2. queue, don't refuse; 3. strangers cannot hurt
each other; 4. a flooder inside the class hurts only its fair share.
"""

from __future__ import annotations

from webapp.serving.limits import Limits
from webapp.serving.settings import ServingSettings
from webapp.serving.turns import Ticket, TurnQueue
from webapp.serving.who import ClientKey

CLASS, STRANGER, FLOODER = "198.51.100.7", "192.0.2.1", "203.0.113.66"


def play(queue: TurnQueue, clock: list, watched: list[Ticket], refill=None,
         rounds: int = 500) -> dict[int, int]:
    """Run rounds of one time unit: every running turn ends, ``refill()`` sends more; the round
    in which each watched ticket started."""
    started: dict[int, int] = {}
    for r in range(rounds):
        for i, t in enumerate(watched):
            if t.state != "waiting" and i not in started:
                started[i] = r
        if len(started) == len(watched):
            return started
        clock[0] += 1.0
        for t in [t for t in list(queue._live) if t.state == "running"]:
            t.used = True
            t.release()
        if refill:
            refill()
    raise AssertionError(f"only {len(started)} of {len(watched)} started in {rounds} rounds")


def _class(queue: TurnQueue, n: int = 30) -> list[Ticket]:
    tickets = [queue.admit(ClientKey(f"s{i}", CLASS, f"id:g:pupil{i}")) for i in range(n)]
    assert all(isinstance(t, Ticket) for t in tickets)  # queued, none refused
    return tickets


def test_a_class_behind_one_address_uses_every_worker_and_nobody_is_refused():
    clock = [0.0]
    q = TurnQueue(slots=2, clock=lambda: clock[0])
    started = play(q, clock, _class(q))
    assert max(started.values()) == 14  # 30 turns on 2 workers: 15 rounds, the last starts in 14


def test_a_stranger_waits_at_most_one_turn_whatever_the_class_or_a_flood_does():
    clock = [0.0]
    q = TurnQueue(slots=2, clock=lambda: clock[0])
    _class(q)
    flood = [q.admit(ClientKey(f"f{i}", FLOODER, f"id:g:bot{i}")) for i in range(150)]
    assert all(isinstance(t, Ticket) for t in flood)
    stranger = q.admit(ClientKey("x", STRANGER, "id:g:stranger"))
    assert stranger.position() <= 2  # behind at most the class's and the flood's next turn
    started = play(q, clock, [stranger])
    assert started[0] <= 1  # one turn per worker at most


def test_a_flooding_tab_inside_the_class_costs_a_classmate_about_twice_the_fair_share():
    """A tab minting 30 keys from the class's own address, each resubmitting the moment its turn
    ends, against 30 classmates with one submission each: the last classmate starts within
    about twice the class's own 15 rounds."""
    clock = [0.0]
    q = TurnQueue(slots=2, clock=lambda: clock[0])
    bots = [f"id:g:bot{i}" for i in range(30)]

    def refill() -> None:  # every bot keeps one submission in line
        live = {t.unit for t in q._live}
        for b in bots:
            if b not in live:
                q.admit(ClientKey(f"tab-{b}", CLASS, b))

    refill()
    pupils = _class(q)
    started = play(q, clock, pupils, refill)
    assert max(started.values()) <= 2 * 15 + 1, max(started.values())


def test_one_learner_cannot_fill_the_line_and_an_address_mints_only_so_many_keys():
    q = TurnQueue(slots=2)
    mine = [q.admit(ClientKey(f"tab{i}", CLASS, "id:g:one")) for i in range(10)]
    assert sum(isinstance(t, Ticket) for t in mine) == 3  # one grading, two waiting: the rest refused
    limits = Limits.in_memory(ServingSettings(rate_limit=100))
    admitted = sum(limits.admit(ClientKey(f"t{i}", CLASS, f"id:g:minted{i}")) is None
                   for i in range(400))
    assert admitted == ServingSettings().new_learners_per_address == 300  # a lecture hall fits
