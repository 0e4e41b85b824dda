"""The grading line under floods (formerly the busy gate's tests, test_fair_busy_gate.py): the
busy gate is gone (issue 17: queue, don't refuse), so what these hold is the property the gate
served: flooding clients' backlogs never get a newcomer refused or kept behind them, and only a
real overload (past the line's bounds) is refused, costing no rate limit."""

from __future__ import annotations

from submit_support import submit_harness

from webapp.serving.settings import ServingSettings
from webapp.serving.turns import Refused, Ticket, TurnQueue
from webapp.serving.who import ClientKey


def _flooded(addresses: int, **kw) -> tuple[TurnQueue, list]:
    queue = TurnQueue(slots=2, typical_s=9.5, **kw)  # slow history
    held = []
    for a in range(addresses):
        for s in range(2):  # each flooder: one grading, one waiting ticket
            ticket = queue.admit(ClientKey(session=f"f{a}-{s}", address=f"203.0.113.{a + 1}"))
            assert isinstance(ticket, Ticket)
            held.append(ticket)
    return queue, held


def test_two_flooding_addresses_do_not_get_a_newcomer_refused_or_kept_behind_them():
    queue, held = _flooded(2)
    newcomer = queue.admit(ClientKey(session="honest", address="198.51.100.7"))
    assert isinstance(newcomer, Ticket)
    # The first address took both free workers while it was alone; the newcomer then waits only
    # for the second address's first turn (a newcomer too), never for a backlog.
    assert newcomer.position() == 2
    assert held[3].position() == 3  # the second address's backlog comes after it


def test_a_real_overload_is_still_refused():
    queue, held = _flooded(8, max_waiting=14)  # two running, fourteen waiting: the line is full
    refused = queue.admit(ClientKey("honest", "198.51.100.7"))
    assert isinstance(refused, Refused) and refused.reason == "queue_full"
    assert refused.retry_after_s >= 1
    one = TurnQueue(slots=2, per_address=2)
    assert all(isinstance(one.admit(ClientKey(f"a{i}", "203.0.113.1")), Ticket) for i in range(2))
    assert one.admit(ClientKey("a-again", "203.0.113.1")).reason == "address_full"
    assert isinstance(one.admit(ClientKey("honest", "198.51.100.7")), Ticket)  # not the others


def test_a_sustained_flood_of_wall_limit_gradings_does_not_lock_a_newcomer_out():
    """Red team, 2026-11-30: eight addresses kept one submission each running to the 10 s wall
    limit and resubmitted at once; an honest newcomer got 0 of 26 graded ("busy"). Turns cost
    their grading time, so once the flooders have been served the newcomer comes first."""
    clock = [0.0]
    queue = TurnQueue(slots=2, clock=lambda: clock[0], typical_s=0.5)
    addrs = [f"203.0.113.{a + 1}" for a in range(8)]
    live: list = []
    honest: list[int] = []
    for round_ in range(12):
        for a, addr in enumerate(addrs):  # every flooder without a submission in flight sends one
            if not any(t.client.address == addr for t in live):
                t = queue.admit(ClientKey(f"f{a}-{round_}", addr))
                assert isinstance(t, Ticket)
                live.append(t)
        probe = queue.admit(ClientKey(f"honest-{round_}", "198.51.100.7"))
        assert isinstance(probe, Ticket)  # never refused
        honest.append(probe.position())
        probe.release()
        clock[0] += 10.0  # every running grading hits the wall limit
        for t in [t for t in live if t.position() == 0]:
            t.used = True
            t.release()
            live.remove(t)
    assert queue.typical_s == 10.0  # the flood is real: every recent grading took 10 s
    assert honest[-6:] == [1] * 6, honest  # next in line


def test_a_refusal_by_the_line_costs_no_rate_limit(tmp_path):
    """Red team: ten "busy" answers used up a learner's 10 per minute before anything was
    graded, and the next answer blamed the learner. Only work let into the line counts."""
    from grader.report import Report, TestResult

    def graded(exercise_id, code, learner=None):
        return Report(exercise_id, [TestResult("t", 1.0, 1.0, True, {"en": "", "zh": ""})])

    with submit_harness(tmp_path, graded) as install:
        send = install(ServingSettings(grading_slots=1, rate_limit=1, address_rate_limit=1,
                                       per_address_waiting=1))
        line = install.serving.grading
        held = line.admit(ClientKey("other", "198.51.100.9"))  # the address's one place
        for _ in range(5):
            assert send("Ada", "s-ada", "198.51.100.9") == "address_full"
        held.release()
        assert send("Ada", "s-ada", "198.51.100.9") == "graded"  # her one allowance was intact
        assert send("Ada", "s-ada", "198.51.100.9") == "rate_limited"  # and now it is used
