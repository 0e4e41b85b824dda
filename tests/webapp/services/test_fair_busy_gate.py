"""The busy gate and the fair queue together: flooding clients' backlogs must not get a
newcomer refused as "busy", since the newcomer is served ahead of those backlogs."""

from __future__ import annotations

from webapp.services import admission, fairness


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
    queue, gate, _ = _flooded(8)  # eight addresses: the newcomer's turn is really far
    newcomer = queue.admit(fairness.ClientKey(session="honest", address="198.51.100.7"))
    assert isinstance(newcomer, fairness.Ticket) and newcomer.position() > 2
    ok, wait = admission.gate_enter(gate, newcomer)
    assert not ok and wait >= 1
