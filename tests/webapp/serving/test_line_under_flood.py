"""The grading line under floods (formerly the busy gate's tests, test_fair_busy_gate.py): the
busy gate is gone (issue 17: queue, don't refuse), so what these hold is the property the gate
served: flooding clients' backlogs never get a newcomer refused or kept behind them, and only a
real overload (past the line's bounds) is refused, costing no rate limit."""

from __future__ import annotations

from submit_support import submit_harness

from transformer_lab.message import Refusal
from webapp.serving.settings import ServingSettings
from webapp.serving.turns import Ticket, TurnQueue
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
    """A full line of many addresses, one place each: no address is heavier than a newcomer's,
    so there is nobody to push out, and the newcomer is refused (with a time to retry)."""
    queue = TurnQueue(slots=2, typical_s=9.5, max_waiting=14)
    held = [queue.admit(ClientKey(f"c{a}", f"203.0.113.{a + 1}")) for a in range(16)]
    assert all(isinstance(t, Ticket) for t in held)  # two running, fourteen waiting
    refused = queue.admit(ClientKey("honest", "198.51.100.7"))
    assert isinstance(refused, Refusal) and refused.reason == "queue_full"
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

    def graded(exercise_id, code, learner=None, learner_id=None):
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


def test_four_flooding_addresses_cannot_fill_the_line_against_strangers():
    """Red team 2026-12-03, R3: four addresses kept 200 places each (the per-address bound)
    against a line of 600, and 4 of 5 learners from other addresses were refused for 290 s. A
    full line now takes a newcomer from a lighter address by pushing out the newest waiting
    ticket of the address that holds the most; that ticket's waiter is told why."""
    from transformer_lab.message import Refused

    queue = TurnQueue(slots=2, typical_s=9.5, per_address=20, per_learner=1, max_waiting=60)
    flood = []
    for a in range(4):  # 4 x 20 = 80 tickets: 2 running, the line (60) full, the rest refused
        for s in range(20):
            t = queue.admit(ClientKey(f"f{a}-{s}", f"203.0.113.{a + 1}"))
            if isinstance(t, Ticket):
                flood.append(t)
    assert queue.snapshot()["waiting"] == 60
    # The flood evened itself out while it filled the line: the fourth address pushed out the
    # heaviest ones' newest tickets (15 places each now).
    before = {id(t) for t in flood if t.state == "pushed"}
    assert sorted(queue.snapshot(f"203.0.113.{a + 1}")["waiting"] for a in range(4)) == [15, 15, 15, 15]
    strangers = [queue.admit(ClientKey(f"s{i}", f"198.51.100.{i + 1}")) for i in range(5)]
    assert all(isinstance(t, Ticket) for t in strangers), strangers
    assert queue.snapshot()["waiting"] == 60  # the line's bound holds
    pushed = [t for t in flood if t.state == "pushed" and id(t) not in before]
    assert len(pushed) == 5 and len({t.group for t in pushed}) >= 2  # the heaviest, in turn
    try:
        pushed[0].wait_turn()
        raise AssertionError("a pushed-out ticket got a turn")
    except Refused as out:
        assert out.refusal.reason == "pushed_out" and "another network" in out.refusal.message["en"]
        assert "其他网络" in out.refusal.message["zh"]
    pushed[0].release()  # safe: its place is already given back
    # The strangers come before the flood's backlogs: round robin over the addresses in line,
    # so each waits behind at most one ticket of every other address (4 + 5), not 60.
    assert max(t.position() for t in strangers) <= 4 + 5
    for t in flood + strangers:
        t.release()
    assert queue.snapshot() == {"running": 0, "waiting": 0}


def test_an_address_is_never_pushed_out_for_one_as_heavy():
    queue = TurnQueue(slots=1, typical_s=1.0, per_address=10, max_waiting=4)
    held = [queue.admit(ClientKey(f"a{i}", "203.0.113.1" if i < 3 else "203.0.113.2")) for i in range(5)]
    assert all(isinstance(t, Ticket) for t in held)  # 1 runs; waiting: A 2, B 2
    refused = queue.admit(ClientKey("b-more", "203.0.113.2"))  # B would pass A: no push-out
    assert isinstance(refused, Refusal) and refused.reason == "queue_full"
    assert all(t.state != "pushed" for t in held)
    for t in held:
        t.release()


def test_a_pushed_out_submission_is_refused_with_why_and_nothing_is_stored(tmp_path):
    import threading

    from grader.report import Report, TestResult

    gate = threading.Event()

    def graded(exercise_id, code, learner=None, learner_id=None):
        gate.wait(10)  # the first submission holds the one worker until the line is set up
        return Report(exercise_id, [TestResult("t", 1.0, 1.0, True, {"en": "", "zh": ""})])

    with submit_harness(tmp_path, graded) as install:
        send = install(ServingSettings(grading_slots=1, per_address_waiting=5, max_waiting=2,
                                       per_learner_waiting=1))
        line = install.serving.grading
        out: dict[str, str] = {}

        def submit(name: str, address: str) -> threading.Thread:
            t = threading.Thread(target=lambda: out.__setitem__(name, send(name, f"s-{name}", address)))
            t.start()
            return t

        runs = []
        for n in ("f0", "f1", "f2"):  # one runs, two wait: the line (2) is full, one address
            runs.append(submit(n, "203.0.113.1"))
            while sum(line.snapshot().values()) < len(runs):
                threading.Event().wait(0.01)
        runs.append(submit("Stranger", "198.51.100.7"))  # pushes out f2, the newest waiting
        while "f2" not in out:
            threading.Event().wait(0.01)
        gate.set()
        for t in runs:
            t.join(10)
        assert out == {"f0": "graded", "f1": "graded", "f2": "pushed_out", "Stranger": "graded"}, out
        assert install.submitter.book.count() == 3  # nothing stored for the pushed-out one
