"""Red team 5's two open admission findings, replayed with a fake clock and a fake grader:

- N1: a flooder posing as newcomers. Each flooding address keeps one ticket in flight, so each
  of its tickets was "alone in its flow" and skipped the wait budget; 16 addresses kept every
  place and an honest first-time learner was refused 40 times out of 40
  (/tmp/redteam5/newcomer_lockout.py).
- N4: a busy refusal was charged to the whole address whenever anyone there had a grading in
  flight: 30 classmates behind one NAT clicking Submit once each during a busy spell used up
  the address's 30 per minute, and the next classmate's first submission was refused as
  rate-limited (/tmp/redteam5/test_classroom_busy_charge.py).

Issue 17 removed the busy gate and the newcomer pass (a classroom waits in line; nobody is
refused for a long line). The tests are restated around the properties N1 and N4 protect: a
flooder posing as newcomers keeps nobody from another address waiting longer than one turn per
flooding address, and a busy spell costs a classroom nothing (every click is graded in turn).
"""

from __future__ import annotations

import threading

import pytest
from submit_support import end_running_turns, submit_harness

from webapp.serving.settings import ServingSettings
from webapp.serving.turns import Ticket, TurnQueue
from webapp.serving.who import ClientKey, client_address

SLOW_S = 9.5  # every flooding grading runs this long (the red team's sleeper)
HONEST = "198.51.100.1"
CLASS = "198.51.100.7"  # one NAT, a whole classroom behind it


# --- N1: a flooding address that keeps one ticket in flight is no newcomer -----------------------

def _send(queue: TurnQueue, key: ClientKey) -> Ticket | None:
    """One submission into the grading line, as submissions.submit does."""
    ticket = queue.admit(key)
    return ticket if isinstance(ticket, Ticket) else None


@pytest.mark.parametrize("flooders", [16, 24])
def test_one_ticket_per_flooding_address_does_not_lock_a_newcomer_out(flooders):
    """Distinct IPv6 homes (/56s; the red team used /64s of one /56, one client since N2), each
    resubmitting the moment its grading ends (before the honest
    learner's retry), each of its two tickets in flight at most; the honest learner retries
    every round until it is admitted."""
    clock = [0.0]
    queue = TurnQueue(slots=2, per_address=2, clock=lambda: clock[0], typical_s=SLOW_S)
    addrs = [client_address(f"2001:db8:{i:x}::{i + 1}", None, 0) for i in range(flooders)]
    assert len(set(addrs)) == flooders
    live: list[Ticket] = []
    sent = 0

    def flood() -> None:
        nonlocal sent
        for a, addr in enumerate(addrs):
            for _ in range(2):
                sent += 1
                if (t := _send(queue, ClientKey(f"f{a}-{sent}", addr))) is not None:
                    live.append(t)

    flood()
    honest, refused, others_started = None, 0, 0
    for _ in range(40):
        if honest is None:
            honest = _send(queue, ClientKey("honest", HONEST))
            refused += honest is None
        if honest is not None and honest.state == "running":
            break
        clock[0] += SLOW_S
        end_running_turns(live, SLOW_S)
        others_started += sum(1 for t in live if t.state == "running")
        flood()
    assert honest is not None, f"refused {refused} times in 40 rounds: locked out"
    assert honest.state == "running", "admitted but never graded"
    # From its first try to its turn, at most one grading per other address (16: 15, 76 s).
    assert others_started <= flooders, others_started
    honest.release()


def test_an_address_graded_a_moment_ago_is_no_newcomer_until_a_quiet_spell():
    """Restated (no newcomer pass any more): at equal service, an address graded in the last
    RECENT_S yields its place to one that was not, and after a quiet spell it ties again."""
    clock = [0.0]
    queue = TurnQueue(slots=1, clock=lambda: clock[0])
    keeper = queue.admit(ClientKey("other", "192.0.2.1"))  # holds the one slot
    first = queue.admit(ClientKey("s1", HONEST))
    keeper.release()
    first.wait_turn()  # its turn: it is graded (one unit: it took no longer than a unit)
    keeper = queue.admit(ClientKey("other2", "192.0.2.1"))  # waits: the line is never idle
    first.release()  # keeper2 runs now
    again = queue.admit(ClientKey("s2", HONEST))  # graded a moment ago
    stranger = queue.admit(ClientKey("s3", "203.0.113.5"))  # never graded, arrives later
    assert stranger.position() < again.position()
    for t in (again, stranger):
        t.release()
    clock[0] += queue.RECENT_S  # a quiet minute (for HONEST; the keeper still runs)
    later = queue.admit(ClientKey("s4", HONEST))
    other = queue.admit(ClientKey("s5", "203.0.113.6"))
    assert later.position() < other.position()  # level again: arrival order
    for t in (later, other, keeper):
        t.release()


# --- N4: a busy refusal costs only the learner who is retrying -----------------------------------

@pytest.fixture
def submit_path(monkeypatch, tmp_path):
    """submissions.submit with a fake grader (code "hold" blocks until ``release`` is set), a
    fresh gradebook and one grading slot; the test installs the limits. Restored afterwards."""
    from grader.report import Report, TestResult

    entered, release = threading.Event(), threading.Event()

    def graded(exercise_id, code, learner=None, learner_id=None):
        if "hold" in code:
            entered.set()
            assert release.wait(30), "the test never let the held grading finish"
        return Report(exercise_id, [TestResult("t", 1.0, 1.0, True, {"en": "", "zh": ""})])

    with submit_harness(tmp_path, graded) as install:
        install.entered, install.release = entered, release
        try:
            yield install
        finally:
            release.set()


def _in_threads(calls) -> list[str]:
    out: list[str] = []
    threads = [threading.Thread(target=lambda c=c: out.append(c())) for c in calls]
    for t in threads:
        t.start()
    return out, threads


def test_busy_refusals_of_classmates_do_not_lock_the_class_out(submit_path):
    """The red team's reproduction: each of 30 classmates clicks Submit once in a busy spell.
    Restated: nobody is refused as busy any more; every click waits in line and is graded, and
    the class's limits are still intact afterwards (the address bound is sized for a class)."""
    send = submit_path(ServingSettings(grading_slots=1, rate_limit=1, address_rate_limit=40))
    line = submit_path.serving.grading
    # The server is busy: another address's grading holds the one worker.
    other = line.admit(ClientKey("x", "192.0.2.1"))
    outcomes, threads = _in_threads([lambda i=i: send(f"Learner{i}", f"s{i}", CLASS)
                                     for i in range(30)])
    while line.snapshot()["waiting"] < 30:
        threading.Event().wait(0.01)
    other.release()
    for t in threads:
        t.join(30)
    assert outcomes == ["graded"] * 30
    assert send("Late", "s-late", CLASS) == "graded", "the class is rate-limited after a busy spell"


def test_a_retry_flood_costs_the_flooder_and_not_its_classmates(submit_path):
    """One learner keeps a grading in flight and retries under fresh sessions (free to mint):
    the retries wait behind it and cost that learner's own quota, so the flood runs out; a
    classmate behind the same address is graded before the flooder's waiting retries."""
    send = submit_path(ServingSettings(grading_slots=1, rate_limit=3, address_rate_limit=10))
    line = submit_path.serving.grading
    first, threads = _in_threads([lambda: send("Bot", "b0", CLASS, "hold = 1\n")])
    assert submit_path.entered.wait(30)
    retries, more = _in_threads([lambda i=i: send("Bot", f"b{i}", CLASS) for i in (1, 2)])
    while line.snapshot()["waiting"] < 2:
        threading.Event().wait(0.01)
    ada, ada_thread = _in_threads([lambda: send("Ada", "s-ada", CLASS)])
    while line.snapshot()["waiting"] < 3:
        threading.Event().wait(0.01)
    ada_ticket = next(t for t in line._live if t.client.session == "s-ada")
    assert ada_ticket.position() == 1, "a classmate waits behind the flooder's retries"
    submit_path.release.set()
    for t in threads + more + ada_thread:
        t.join(30)
    assert first == ["graded"] and retries == ["graded", "graded"] and ada == ["graded"]
    # Three attempts in the window (one graded, two retries while it ran): Bot is spent.
    assert send("Bot", "b3", CLASS) == "rate_limited"
    assert send("Eve", "s-eve", HONEST) == "graded"
