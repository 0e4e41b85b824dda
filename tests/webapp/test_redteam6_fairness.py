"""Red team 5's two open admission findings, replayed with a fake clock and a fake grader:

- N1: a flooder posing as newcomers. Each flooding address keeps one ticket in flight, so each
  of its tickets was "alone in its flow" and skipped the wait budget; 16 addresses kept every
  place and an honest first-time learner was refused 40 times out of 40
  (/tmp/redteam5/newcomer_lockout.py).
- N4: a busy refusal was charged to the whole address whenever anyone there had a grading in
  flight: 30 classmates behind one NAT clicking Submit once each during a busy spell used up
  the address's 30 per minute, and the next classmate's first submission was refused as
  rate-limited (/tmp/redteam5/test_classroom_busy_charge.py).
"""

from __future__ import annotations

import threading

import pytest
from submit_support import end_running_turns, submit_harness

from grader.gradebook import RateLimiter
from webapp.services import admission
from webapp.services.client_address import client_address
from webapp.services.fairness import ClientKey, FairQueue, Ticket

SLOW_S = 9.5  # every flooding grading runs this long (the red team's sleeper)
HONEST = "198.51.100.1"
CLASS = "198.51.100.7"  # one NAT, a whole classroom behind it


# --- N1: a flooding address that keeps one ticket in flight is no newcomer -----------------------

def _send(queue: FairQueue, gate: admission.WaitGate, key: ClientKey) -> Ticket | None:
    """One submission through the fair queue and the busy gate, as submissions.submit does."""
    ticket = queue.admit(key, count=False)
    if not isinstance(ticket, Ticket):
        return None
    if not admission.gate_enter(gate, ticket)[0]:
        ticket.release()
        return None
    return ticket


@pytest.mark.parametrize("flooders", [16, 24])
def test_one_ticket_per_flooding_address_does_not_lock_a_newcomer_out(flooders):
    """Distinct IPv6 homes (/56s; the red team used /64s of one /56, one client since N2), each
    resubmitting the moment its grading ends (before the honest
    learner's retry), each of its two tickets in flight at most; the honest learner retries
    every round until it is admitted."""
    clock = [0.0]
    queue = FairQueue(slots=2, per_address=2, clock=lambda: clock[0])
    gate = admission.WaitGate(max_in_flight=16, slots=2, max_wait_s=15.0, typical_s=SLOW_S)
    addrs = [client_address(f"2001:db8:{i:x}::{i + 1}", None, 0) for i in range(flooders)]
    assert len(set(addrs)) == flooders
    live: list[Ticket] = []
    sent = 0

    def flood() -> None:
        nonlocal sent
        for a, addr in enumerate(addrs):
            for _ in range(2):
                sent += 1
                if (t := _send(queue, gate, ClientKey(f"f{a}-{sent}", addr))) is not None:
                    live.append(t)

    flood()
    honest, refused, others_started = None, 0, 0
    for _ in range(40):
        if honest is None:
            honest = _send(queue, gate, ClientKey("honest", HONEST))
            refused += honest is None
        if honest is not None and honest.state == "running":
            break
        clock[0] += SLOW_S
        end_running_turns(live, gate, SLOW_S)
        others_started += sum(1 for t in live if t.state == "running")
        flood()
    assert honest is not None, f"refused {refused} times in 40 rounds: locked out"
    assert honest.state == "running", "admitted but never graded"
    # From its first try to its turn, at most one grading per other address (16: 15, 76 s).
    assert others_started <= flooders, others_started
    honest.release()
    gate.leave(0.1)


def test_an_address_graded_a_moment_ago_is_no_newcomer_until_a_quiet_spell():
    clock = [0.0]
    queue = FairQueue(slots=2, per_address=2, clock=lambda: clock[0])
    keeper = queue.admit(ClientKey("other", "192.0.2.1"))  # keeps the queue from going idle
    first = queue.admit(ClientKey("s1", HONEST))
    assert queue.newcomer(first)  # nothing of this address in flight, never graded
    first.wait_turn()  # its turn: it is graded
    clock[0] += SLOW_S
    first.release()
    again = queue.admit(ClientKey("s2", HONEST))
    assert queue.alone(again) and not queue.newcomer(again)  # alone, but graded a moment ago
    again.release()
    clock[0] += queue.RECENT_S
    later = queue.admit(ClientKey("s3", HONEST))
    assert queue.newcomer(later)  # after a quiet minute: a newcomer again
    later.release()
    # A ticket refused right after admission (it held a slot, but was never graded) leaves its
    # address a newcomer.
    turned_away = queue.admit(ClientKey("s4", "203.0.113.5"))
    assert turned_away.state == "running"
    turned_away.release()
    assert queue.newcomer(queue.admit(ClientKey("s5", "203.0.113.5")))
    keeper.release()


# --- N4: a busy refusal costs only the learner who is retrying -----------------------------------

@pytest.fixture
def submit_path(monkeypatch, tmp_path):
    """submissions.submit with a fake grader (code "hold" blocks until ``release`` is set), a
    fresh gradebook and one grading slot; the test installs the limits. Restored afterwards."""
    from grader.report import Report, TestResult

    entered, release = threading.Event(), threading.Event()

    def graded(exercise_id, code, learner=None):
        if "hold" in code:
            entered.set()
            assert release.wait(30), "the test never let the held grading finish"
        return Report(exercise_id, [TestResult("t", 1.0, 1.0, True, {"en": "", "zh": ""})])

    with submit_harness(monkeypatch, tmp_path, graded, slots=1) as install:
        install.entered, install.release = entered, release
        try:
            yield install
        finally:
            release.set()


def test_busy_refusals_of_classmates_do_not_lock_the_class_out(submit_path):
    """The red team's reproduction: each of 30 classmates clicks Submit once in a busy spell."""
    queue = FairQueue(slots=1, per_address=2, address_limiter=RateLimiter(30, 60))
    gate = admission.WaitGate(max_in_flight=2, slots=1, max_wait_s=15.0)
    send = submit_path(RateLimiter(1, 60), queue, gate)  # one each: a busy click must cost none
    # The server is busy: another address's grading plus one classmate's hold both places.
    other = queue.admit(ClientKey("x", "192.0.2.1"), count=False)
    mate = queue.admit(ClientKey("mate", CLASS), count=False)
    assert gate.enter()[0] and gate.enter()[0]
    outcomes = [send(f"Learner{i}", f"s{i}", CLASS) for i in range(30)]
    assert set(outcomes) == {"busy"}
    other.release()
    mate.release()
    gate.leave()
    gate.leave()
    assert send("Late", "s-late", CLASS) == "graded", "the class is rate-limited after a busy spell"
    assert [send(f"Learner{i}", f"t{i}", CLASS) for i in range(3)] == ["graded"] * 3  # theirs too


def test_a_retry_flood_costs_the_flooder_and_not_its_classmates(submit_path):
    """One learner keeps a grading in flight and retries under fresh sessions (free to mint):
    the retries cost that learner's own quota, so the flood runs out; a classmate behind the
    same address is graded at once."""
    queue = FairQueue(slots=1, per_address=4, address_limiter=RateLimiter(3, 60))
    gate = admission.WaitGate(max_in_flight=1, slots=1)
    send = submit_path(RateLimiter(3, 60), queue, gate)
    first: list[str] = []
    held = threading.Thread(target=lambda: first.append(send("Bot", "b0", CLASS, "hold = 1\n")))
    held.start()
    assert submit_path.entered.wait(30)
    assert [send("Bot", f"b{i}", CLASS) for i in (1, 2)] == ["busy", "busy"]
    submit_path.release.set()
    held.join(30)
    assert first == ["graded"]
    # Three attempts in the window (one graded, two busy retries while it ran): Bot is spent.
    assert send("Bot", "b3", CLASS) == "rate_limited"
    assert send("Ada", "s-ada", CLASS) == "graded", "a classmate paid for the flooder's retries"
    assert send("Eve", "s-eve", HONEST) == "graded"
