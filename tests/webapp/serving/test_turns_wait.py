"""webapp.serving.turns as the busy gate's successor (webapp.services.admission is gone: queue,
don't refuse): the ETA comes from the median of recent turns, a free slot is always taken, a
long wait is shown and not refused, and only the hard bounds refuse. Hand-driven clock."""

from __future__ import annotations

import pytest

from transformer_lab.message import Refusal
from webapp.serving.turns import Ticket, TurnQueue
from webapp.serving.who import ClientKey


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def client(i: int) -> ClientKey:
    return ClientKey(f"s{i}", f"203.0.113.{i}")  # strangers: one address each


def take_turn(q: TurnQueue, clock: Clock, i: int, seconds: float) -> None:
    """One whole turn of ``seconds`` for a stranger (the line was idle)."""
    t = q.admit(client(i))
    assert isinstance(t, Ticket) and t.position() == 0
    t.wait_turn()  # its turn: it is timed
    clock.t += seconds
    t.release()


def test_the_eta_counts_rounds_of_the_slots_by_hand():
    q = TurnQueue(slots=2, typical_s=0.5)
    # By hand: position p starts after ceil(p / 2) rounds of 0.5 s (0: its turn already).
    assert [q.eta_s(p) for p in range(7)] == [0, 0.5, 0.5, 1.0, 1.0, 1.5, 1.5]
    tickets = [q.admit(client(i)) for i in range(7)]
    # Policy change: the old gate refused the 7th (1.5 s > a 1 s budget); now all seven wait.
    assert all(isinstance(t, Ticket) for t in tickets)
    assert [t.position() for t in tickets] == [0, 0, 1, 2, 3, 4, 5]
    for t in tickets:
        t.release()


def test_the_estimate_is_the_median_of_recent_turns():
    clock = Clock()
    q = TurnQueue(slots=1, typical_s=0.5, clock=clock)
    take_turn(q, clock, 1, 10.0)  # one submission ran to its wall limit: the median holds
    assert q.typical_s == 0.5
    for i in range(5):
        take_turn(q, clock, 2 + i, 10.0)  # most recent gradings slow: the estimate follows
    assert q.typical_s == 10.0
    assert q.snapshot() == {"running": 0, "waiting": 0}
    first = q.admit(client(20))  # a free slot is always taken, however slow the grader
    assert isinstance(first, Ticket) and first.position() == 0
    # Policy change: the old gate refused a wait of 10 s with a budget of 1 s; now it waits,
    # told its place and an ETA of one 10 s round.
    second = q.admit(client(21))
    assert isinstance(second, Ticket) and second.position() == 1
    assert q.eta_s(second.position()) == pytest.approx(10.0)
    assert q.snapshot() == {"running": 1, "waiting": 1}
    first.release()
    assert second.position() == 0  # the next turn is its own
    second.release()


def test_an_unused_turn_does_not_refine_the_estimate():
    clock = Clock()
    q = TurnQueue(slots=1, typical_s=0.5, clock=clock)
    for i in range(6):  # given back without grading (a refusal after admit): not timed
        t = q.admit(client(i))
        clock.t += 10.0
        t.release()
    assert q.typical_s == 0.5


def test_release_is_safe_twice_and_a_released_ticket_cannot_wait():
    q = TurnQueue(slots=1)
    t = q.admit(client(1))
    t.release()
    # Policy change: the gate's "leave() more often than enter()" error is gone; a ticket is
    # released in one place (a context manager) and a second release does nothing.
    t.release()
    assert q.snapshot() == {"running": 0, "waiting": 0}
    with pytest.raises(RuntimeError, match="released ticket"):
        t.wait_turn()
    with q.admit(client(2)) as held:
        assert held.position() == 0
    assert held.state == "done" and q.snapshot() == {"running": 0, "waiting": 0}


def test_the_hard_bounds_still_hold():
    """Refusal only past max_waiting in all (or an address's or a learner's bound)."""
    q = TurnQueue(slots=4, max_waiting=1, typical_s=2.0)
    held = [q.admit(client(i)) for i in range(5)]  # four grade, one waits
    assert all(isinstance(t, Ticket) for t in held)
    full = q.admit(client(9))
    assert isinstance(full, Refusal) and full.reason == "queue_full"
    # one round of 2 s frees a place (less the few ms the running turns have already had)
    assert full.retry_after_s == pytest.approx(2.0, abs=0.05)
    assert "retry in 2 s" in full.message["en"] and "2 秒后重试" in full.message["zh"]
    for t in held:
        t.release()
    assert isinstance(q.admit(client(9)), Ticket)


@pytest.mark.parametrize("bad", [dict(slots=0), dict(per_address=0), dict(per_learner=0),
                                 dict(max_waiting=0), dict(typical_s=0), dict(unit_s=0)])
def test_bad_bounds(bad):
    with pytest.raises(ValueError):
        TurnQueue(**bad)
