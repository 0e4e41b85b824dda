"""Red team 3's open findings, reproduced without timings (a fake clock, a fake grader):

- R2: eight addresses keeping slow submissions in flight got a first-time learner refused as
  "busy" (10 refusals, graded after 37.5 s: /tmp/redteam3/flood_app.py), and busy refusals cost
  the flooders nothing. (Issue 17 removed the busy gate: nobody is refused for a long line any
  more; the newcomer's wait is what these tests hold.)
- R3: TrainSessions kept the last runs of 32 sessions app-wide: one address replaying a cached
  run under 32 fresh session hashes evicted everyone's model from the explorer
  (/tmp/redteam3/evict_last_runs.py).
- G1: the per-learner limit was charged before the per-address limit, so an attempt refused by
  the address limit still used the learner's quota.
"""

from __future__ import annotations

import pytest
from pg_support import fresh_schema
from submit_support import end_running_turns, submit_harness

from webapp.serving.settings import ServingSettings
from webapp.serving.turns import Ticket, TurnQueue
from webapp.serving.who import ClientKey
from webapp.train.sessions import TrainSessions

FLOODERS = [f"203.0.113.{a + 1}" for a in range(8)]
NEWCOMER = "198.51.100.1"
SLOW_S = 9.5  # the red team's sleeper


# --- R2: a newcomer is admitted on its own fair-queue position -----------------------------------

def _send(queue: TurnQueue, key: ClientKey, live: list) -> bool:
    """One submission into the grading line, as submissions.submit does."""
    ticket = queue.admit(key)
    if not isinstance(ticket, Ticket):
        return False
    live.append(ticket)
    return True


def test_a_newcomer_is_admitted_while_eight_addresses_flood_and_waits_one_turn_per_address():
    clock = [0.0]
    queue = TurnQueue(slots=2, clock=lambda: clock[0], typical_s=SLOW_S)
    live: list[Ticket] = []
    sent = 0

    def flood() -> None:  # every flooder keeps two submissions going, as fast as it may
        nonlocal sent
        for a, addr in enumerate(FLOODERS):
            for s in range(2):
                sent += 1
                _send(queue, ClientKey(f"f{a}-{s}-{sent}", addr), live)

    flood()
    newcomer = queue.admit(ClientKey("honest", NEWCOMER))
    assert isinstance(newcomer, Ticket), "a first-time learner was refused while others flood"
    started_before = 0
    while newcomer.state == "waiting":  # every grading runs to SLOW_S; flooders resubmit at once
        clock[0] += SLOW_S
        end_running_turns(live, SLOW_S)
        started_before += sum(1 for t in live if t.state == "running")
        flood()
    assert started_before <= len(FLOODERS), started_before  # at most one turn per other address
    newcomer.release()


@pytest.fixture
def submit_path(monkeypatch, tmp_path):
    """submissions.submit with a fake grader, a fresh gradebook and one grading slot; the caller
    installs the queue and limits. Everything is restored afterwards."""
    from grader.report import Report, TestResult

    def graded(exercise_id, code, learner=None, learner_id=None):
        return Report(exercise_id, [TestResult("t", 1.0, 1.0, True, {"en": "", "zh": ""})])

    with submit_harness(tmp_path, graded) as install:
        yield install


def test_retries_of_a_learner_with_work_in_flight_cost_that_learner(submit_path):
    """Retries while one's own grading runs run the flooder out. Red team 5 (N4): they cost the
    learner's own quota, not a classmate's (the address is shared by a NAT classroom). Issue 17:
    a retry now waits behind the learner's first submission instead of being refused as busy,
    so it is a real submission and counts against the address too (whose bound is sized for a
    class: 10 here, not 3)."""
    import threading

    from webapp.services import submissions as glue

    flooder = FLOODERS[0]
    send = submit_path(ServingSettings(grading_slots=1, rate_limit=3, address_rate_limit=10))
    serving = submit_path.serving
    bot = glue.rate_key(submit_path.submitter.resolve_learner("Bot"), "f-live", flooder)
    # Bot's slow grading, in flight, charged as the submit path charges it.
    client = ClientKey("f-live", flooder, bot)
    assert serving.limits.admit(client) is None
    held = serving.grading.admit(client)
    assert held.state == "running"
    retries: list[str] = []
    threads = [threading.Thread(target=lambda i=i: retries.append(send("Bot", f"f-retry-{i}",
                                                                       flooder)))
               for i in range(2)]
    for t in threads:
        t.start()
    while serving.grading.snapshot()["waiting"] < 2:  # both wait behind Bot's first
        threading.Event().wait(0.01)
    held.release()
    for t in threads:
        t.join(30)
    assert retries == ["graded", "graded"]
    # Three attempts in the window (one graded, two retries): the next one is refused.
    assert send("Bot", "f-next", flooder) == "rate_limited"
    assert send("Cy", "s-cy", flooder) == "graded"  # a classmate behind the address is not
    assert send("Ada", "s-ada", NEWCOMER) == "graded"  # nor is another address


# --- G1: a refusal by one limit charges no other limit ------------------------------------------

def test_an_address_refusal_leaves_the_learners_quota(submit_path):
    # Ada is a page's guest (her browser key is the same learner from every address; an API
    # label counts per address since issue 17's red team, A3).
    from gradebook.identity import new_browser_key

    ada = new_browser_key()
    send = submit_path(ServingSettings(grading_slots=1, rate_limit=2, address_rate_limit=1))
    assert send("Ada", "s1", "198.51.100.10", key=ada) == "graded"
    assert send("Ada", "s2", "198.51.100.10", key=ada) == "rate_limited"  # the address's one
    assert send("Ada", "s3", "198.51.100.11", key=ada) == "graded"  # her second was intact
    assert send("Ada", "s4", "198.51.100.12", key=ada) == "rate_limited"  # now her own limit


def test_a_learner_refusal_leaves_the_addresss_quota(submit_path):
    send = submit_path(ServingSettings(grading_slots=1, rate_limit=1, address_rate_limit=2))
    assert send("Bob", "s1", "198.51.100.20") == "graded"
    assert send("Bob", "s2", "198.51.100.20") == "rate_limited"  # Bob's one allowance
    assert send("Carol", "s3", "198.51.100.20") == "graded"  # the address's second was intact
    assert send("Dan", "s4", "198.51.100.20") == "rate_limited"  # now the address's limit


def test_the_shared_limit_gives_a_refund_back_in_its_own_scope_only():
    """G1 across replicas: PostgresRateLimiter.refund frees the latest place of one key in one
    scope (against a real server: TEST_DATABASE_URL, as .ci/run sets it)."""
    from webapp.serving.counters import PostgresRateLimiter

    with fresh_schema("refund_test") as scoped:
        learners, addresses = (PostgresRateLimiter(scoped, 2, 60.0, s)
                               for s in ("learner", "address"))
        try:
            assert [learners.check("k")[0] for _ in range(3)] == [True, True, False]
            assert addresses.check("k")[0]
            learners.refund("k")
            assert [learners.check("k")[0] for _ in range(2)] == [True, False]
            assert [addresses.check("k")[0] for _ in range(2)] == [True, False]  # untouched
        finally:
            learners.close()
            addresses.close()

# --- R3: one address cannot evict other addresses' trained models -------------------------------

def test_one_address_replaying_runs_under_fresh_sessions_evicts_only_its_own():
    store = TrainSessions()
    victims = {f"victim{i}": f"198.51.100.{i + 1}" for i in range(5)}
    for session, address in victims.items():
        store.put(session, f"model of {session}", address=address)
    for i in range(200):  # the attack: a cached replay under a fresh session hash each time
        store.put(f"evict{i}", "cached run", address="203.0.113.9")
    assert all(store.get(s) == f"model of {s}" for s in victims)
    kept = [i for i in range(200) if store.get(f"evict{i}") is not None]
    assert 1 <= len(kept) <= store.max_per_address
    assert kept == list(range(200 - len(kept), 200))  # the attacker's own oldest went first
    assert len(store) <= store.max_sessions


def test_when_the_store_is_full_the_address_holding_most_gives_way():
    store = TrainSessions(max_sessions=6, max_per_address=4)
    for i in range(4):
        store.put(f"a{i}", i, address="203.0.113.1")
    store.put("b0", "b", address="203.0.113.2")
    store.put("b1", "b", address="203.0.113.2")
    store.put("c0", "c", address="203.0.113.3")  # seven: one must go, and A holds the most
    assert len(store) == 6 and store.get("a0") is None
    assert [store.get(s) for s in ("a1", "b0", "b1", "c0")] == [1, "b", "b", "c"]
    with pytest.raises(ValueError, match="max_per_address"):
        TrainSessions(max_sessions=4, max_per_address=0)


def test_idle_sessions_expire_so_memory_stays_bounded():
    clock = [0.0]
    store = TrainSessions(ttl_s=100.0, clock=lambda: clock[0])
    store.put("idle", "old model", address="198.51.100.1")
    store.put("busy", "model", address="198.51.100.2")
    clock[0] = 60.0
    assert store.get("busy") == "model"  # the explorer reading it keeps it alive
    clock[0] = 130.0
    assert store.get("idle") is None and store.get("busy") == "model"
    assert len(store) == 1
    clock[0] = 500.0
    assert len(store) == 0


def _page_request(address: str, session: str):
    import gradio as gr
    from starlette.requests import Request

    scope = {"type": "http", "method": "POST", "path": "/gradio_api/queue/join", "headers": [],
             "client": (address, 40000), "query_string": b""}
    return gr.Request(request=Request(scope), session_hash=session)


@pytest.mark.slow
def test_the_train_page_files_each_run_under_its_callers_address(monkeypatch):
    """Through the Train page's own event: 40 runs from one address under fresh session hashes
    leave another address's trained model in the explorer's store."""
    import gradio as gr

    from webapp.train import events, training
    from webapp.train import page as train

    run = training.new_run(training.page_config("reverse", heads=2, d_model=16, layers=1,
                                                d_ff=32, steps=4))
    for msg in training.stream(run):
        training.apply(run, msg)
    done = {"step": 4, "total": 4, "elapsed": 0.1, "fraction": 1.0, "cached": True}

    def replay(lab, config, stop=None, client=None):  # a cached replay: the attack's cheap run
        yield done, run

    monkeypatch.setattr(events, "run_training", replay)  # the Train click's handler lives there
    from webapp.lab import Lab
    from webapp.pages.links import LessonLinks
    from webapp.serving.wing import Serving

    lab = Lab(serving=Serving.local())  # the page's parts, as app.py hands them over
    store = lab.sessions
    with gr.Blocks() as blocks:
        train.build(lab, LessonLinks())
    on_train = next(f.fn for f in blocks.fns.values() if f.name == "on_train")
    settings = ("reverse", 2, 16, 1, 32, 0.0, "sinusoidal", 4, "cpu", 0, "transformer", "bundled")

    def train_as(address: str, session: str) -> None:
        for _ in on_train(_page_request(address, session), *settings):  # no gr.Progress:
            pass  # the page's own status line shows the step (issue 20)

    train_as("198.51.100.7", "victim")
    assert store.get("victim") is run
    for i in range(40):
        train_as("203.0.113.9", f"evict{i}")
    assert store.get("victim") is run, "one address's runs evicted another browser's model"
    assert len(store) <= 1 + store.max_per_address
