"""The busy gate and the fair queue together: flooding clients' backlogs must not get a
newcomer refused as "busy", since the newcomer is served ahead of those backlogs."""

from __future__ import annotations

from webapp.services import admission, fairness, grading_queue


def _flooded(addresses: int) -> tuple[fairness.FairQueue, admission.WaitGate, list]:
    queue = fairness.FairQueue(slots=2, per_address=2)
    gate = admission.WaitGate(max_in_flight=16, slots=2, max_wait_s=15.0, typical_s=9.5)  # slow history
    held = []
    for a in range(addresses):
        for s in range(2):  # each flooder: one grading, one waiting ticket
            ticket = queue.admit(fairness.ClientKey(session=f"f{a}-{s}", address=f"203.0.113.{a + 1}"))
            assert isinstance(ticket, fairness.Ticket)
            ok, _ = admission.gate_enter(gate, ticket)
            if ok:
                held.append(ticket)
    return queue, gate, held


def test_two_flooding_addresses_do_not_get_a_newcomer_refused_as_busy():
    queue, gate, held = _flooded(2)
    assert gate.in_flight == 4  # two grading, two waiting: the old count says 19 s > 15 s
    assert gate.expected_wait(gate.in_flight) > gate.max_wait_s
    newcomer = queue.admit(fairness.ClientKey(session="honest", address="198.51.100.7"))
    assert isinstance(newcomer, fairness.Ticket)
    assert newcomer.position() == 1  # first in line: ahead of both backlogs
    ok, wait = admission.gate_enter(gate, newcomer)
    assert ok, wait


def test_a_real_overload_is_still_refused():
    """Red team 4 (R2): a first-time address is admitted on its fair-queue position whatever
    the flood (test_redteam4_fairness.py), so the overload refused now is a flooder's extra
    submissions past the wait budget, and every place taken by other addresses' first ones."""
    queue, gate, held = _flooded(8)  # eight addresses, a 9.5 s history
    extra = sorted(t.client.session for t in held if t.client.session.endswith("-1"))
    assert extra == ["f0-1", "f1-1"]  # later second tickets would wait past 15 s: refused
    assert gate.in_flight == 10  # eight first tickets and those two
    queue = fairness.FairQueue(slots=2, per_address=2)
    full = admission.WaitGate(max_in_flight=4, slots=2, max_wait_s=15.0, typical_s=0.5)
    for a in range(4):  # four addresses, one grading each: every place is taken
        ticket = queue.admit(fairness.ClientKey(f"a{a}", f"203.0.113.{a + 1}"))
        assert admission.gate_enter(full, ticket)[0]
    second = queue.admit(fairness.ClientKey("a0-again", "203.0.113.1"))
    assert admission.gate_enter(full, second) == (False, 1.0)  # its address has one in flight
    newcomer = queue.admit(fairness.ClientKey("honest", "198.51.100.7"))
    ok, wait = admission.gate_enter(full, newcomer)
    assert not ok and wait >= 1


def test_a_sustained_flood_of_wall_limit_gradings_does_not_lock_a_newcomer_out():
    """Red team, 2026-11-30: eight addresses kept one submission each running to the 10 s wall
    limit and resubmitted at once; an honest newcomer got 0 of 26 graded ("busy"). Turns now
    cost their grading time, so once the flooders have been served the newcomer comes first
    and the gate admits it (with turns counted, not timed, it was refused from round 3 on)."""
    clock = [0.0]
    queue = fairness.FairQueue(slots=2, per_address=2, clock=lambda: clock[0])
    gate = admission.WaitGate(max_in_flight=16, slots=2, max_wait_s=15.0, typical_s=0.5)
    addrs = [f"203.0.113.{a + 1}" for a in range(8)]
    live: list = []
    honest: list[tuple[int, bool]] = []
    for round_ in range(12):
        for a, addr in enumerate(addrs):  # every flooder without a submission in flight sends one
            if not any(t.client.address == addr for t in live):
                t = queue.admit(fairness.ClientKey(f"f{a}-{round_}", addr))
                assert isinstance(t, fairness.Ticket)
                if admission.gate_enter(gate, t)[0]:
                    live.append(t)
                else:
                    t.release()
        probe = queue.admit(fairness.ClientKey(f"honest-{round_}", "198.51.100.7"))
        ok, _ = admission.gate_enter(gate, probe)
        honest.append((probe.position(), ok))
        if ok:
            gate.leave()
        probe.release()
        clock[0] += 10.0  # every running grading hits the wall limit
        for t in [t for t in live if t.position() == 0]:
            t.used = True
            t.release()
            gate.leave(10.0)
            live.remove(t)
    assert gate.typical_s == 10.0  # the flood is real: every recent grading took 10 s
    assert honest[-6:] == [(1, True)] * 6, honest  # next in line, and admitted


def test_a_busy_refusal_costs_no_rate_limit(monkeypatch, tmp_path):
    """Red team: ten "busy" answers used up a learner's 10 per minute before anything was
    graded, and the next answer blamed the learner ("you have sent 10 submissions"). Only
    admitted work counts now, for the learner and for the address."""
    import grader.api
    from grader.gradebook import RateLimiter, open_gradebook
    from grader.report import Report, TestResult
    from webapp.services import submissions as glue

    def graded(exercise_id, code, learner=None):
        return Report(exercise_id, [TestResult("t", 1.0, 1.0, True, {"en": "", "zh": ""})])

    monkeypatch.setattr(grader.api, "grade", graded)
    state = glue._STATE.ensure()
    saved = (state.book, state.limiter, state.gate, grading_queue.settings().queue)
    book = open_gradebook(f"sqlite:///{tmp_path / 'gb.sqlite3'}")
    addresses = RateLimiter(1, 60)
    grading_queue.configure(queue=fairness.FairQueue(slots=1, per_address=2, address_limiter=addresses))
    full = admission.WaitGate(max_in_flight=1, slots=1)
    full.enter()  # someone else's grading holds the only place
    try:
        glue.configure(book=book, limiter=RateLimiter(1, 60), gate=full)
        client = fairness.ClientKey("s-ada", "198.51.100.9")
        for _ in range(5):
            out = glue.grade_and_record("causal-mask", "x = 1\n", "Ada", "s-ada", client=client)
            assert out["reason"] == "busy"
        full.leave()
        out = glue.grade_and_record("causal-mask", "x = 1\n", "Ada", "s-ada", client=client)
        assert out["extra_data"]["stored"] and out["score"] == 1.0  # her one allowance was intact
        again = glue.grade_and_record("causal-mask", "x = 1\n", "Ada", "s-ada", client=client)
        assert again["reason"] == "rate_limited"  # and now it is used
        assert book.count() == 1
    finally:
        glue.configure(book=saved[0], limiter=saved[1], gate=saved[2])
        grading_queue.configure(queue=saved[3])
        book.close()
