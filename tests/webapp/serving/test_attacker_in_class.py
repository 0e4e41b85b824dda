"""The classroom properties with the attacker *inside* the class (issue 29, items 1-3 and the
desk): one student flooding from the school's one address does not refuse a classmate for a
budget the student spent, and a refused or cancelled request keeps nothing it took."""

from __future__ import annotations

import threading
import time

import pytest

from gradebook import Claim, open_gradebook
from gradebook import identity as idm
from grader.report import Report
from transformer_lab.message import Refusal, Refused
from webapp.services import submissions as glue
from webapp.serving.limits import Limits, NewLearners
from webapp.serving.ratelimit import RateLimiter
from webapp.serving.settings import ServingSettings
from webapp.serving.turns import Ticket, TurnQueue
from webapp.serving.who import ClientKey
from webapp.serving.wing import Serving

CLASS, OTHER = "198.51.100.7", "192.0.2.1"
EXERCISE = "causal-mask"


def test_anonymous_api_calls_do_not_spend_the_pages_new_learner_allowance():
    """Item 1: 300 anonymous `grade` calls, each from a fresh session, used up the address's
    new-learner allowance, and 6 of 6 classmates opening the page were refused for 600 s."""
    limits = Limits.in_memory(ServingSettings(rate_limit=100, address_rate_limit=10_000))
    flood = [limits.admit(ClientKey(f"api{i}", CLASS, f"anon:api{i}")) for i in range(400)]
    assert sum(r is None for r in flood) == 300  # the API's own allowance still bounds it
    mates = [limits.admit(ClientKey(f"page{i}", CLASS, f"id:g:mate{i}")) for i in range(6)]
    assert mates == [None] * 6
    # Labelled API callers count with the API too; a signed-in learner costs no allowance.
    assert limits.admit(ClientKey("x", CLASS, "id:api:0123@" + CLASS)).reason == "new_learners"
    assert limits.admit(ClientKey("y", CLASS, "id:hf:teacher")) is None


def test_one_page_session_minting_keys_is_refused_alone():
    """A tab that sends one key after another is charged for its own excess: the address's
    allowance stays for the classmates."""
    limits = Limits.in_memory(ServingSettings(rate_limit=100, new_learners_per_address=10))
    tab = [limits.admit(ClientKey("tab", CLASS, f"id:g:minted{i}")) for i in range(50)]
    assert sum(r is None for r in tab) == 4  # its first few keys (a browser has one)
    assert {r.reason for r in tab if r is not None} == {"new_learners"}
    mates = [limits.admit(ClientKey(f"s{i}", CLASS, f"id:g:mate{i}")) for i in range(6)]
    assert mates == [None] * 6  # 4 + 6 = the address's 10


def test_simultaneous_first_submissions_of_one_learner_count_once():
    class Slow(RateLimiter):  # a shared store's round trip, where the race opened
        def check(self, key):
            time.sleep(0.05)
            return super().check(key)

    counter = Slow(5, 600.0)
    limits = Limits.in_memory(ServingSettings(rate_limit=100), new_learners=NewLearners(counter))
    me = ClientKey("s1", CLASS, "id:g:ada")
    barrier = threading.Barrier(3)

    def first() -> None:
        barrier.wait()
        limits.admit(me)

    threads = [threading.Thread(target=first) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(counter._hits[f"new:{CLASS}"]) == 1


def test_refused_practice_runs_leave_no_new_learner_place_behind(tmp_path):
    """Item 3: 16 "Run examples" clicks refused by a full line kept 13 new-learner places; with
    LAB_NEW_LEARNERS=15 a new classmate was then refused with nothing in line."""
    settings = ServingSettings(new_learners_per_address=15, rate_limit=100, max_waiting=1)
    serving = Serving.local(settings)
    serving.grading = TurnQueue(slots=1, max_waiting=1)
    held = [serving.grading.admit(ClientKey(f"o{i}", OTHER, f"id:g:o{i}")) for i in range(2)]
    assert all(isinstance(t, Ticket) for t in held)  # a grading and the line's one place
    with open_gradebook(f"sqlite:///{tmp_path / 'gb.sqlite3'}") as book:
        sub = glue.Submitter(serving=serving, book=book)
        for i in range(16):
            out = sub.practice_turn(Claim(typed="Bo", browser_key=idm.new_browser_key()),
                                    f"p{i}", ClientKey(f"p{i}", CLASS))
            assert isinstance(out, Refusal) and out.reason == "queue_full"
        for t in held:
            t.release()
        mate = sub.practice_turn(Claim(typed="Mei", browser_key=idm.new_browser_key()), "m",
                                 ClientKey("m", CLASS))
        assert isinstance(mate, Ticket)  # the address's allowance was all still there
        mate.release()
        assert len(serving.practice.new_learners.limiter._hits[f"new:{CLASS}"]) == 1


def test_a_flooder_holding_the_class_places_is_pushed_back_for_each_classmate():
    """Item 2: 67 sessions x 3 sleeping submissions held the class's 200 places; 11 of 16
    classmates were refused address_full and 5 waited past 20 s. Now a classmate takes the
    place of the heaviest learner's newest waiting ticket, and among learners of equal
    service the one holding fewer places goes first."""
    clock = [0.0]
    q = TurnQueue(slots=2, per_address=200, clock=lambda: clock[0])
    bots = [q.admit(ClientKey(f"bot{b}", CLASS, f"anon:bot{b}")) for b in range(67) for _ in range(3)]
    assert sum(isinstance(t, Ticket) for t in bots) == 200
    mates = [q.admit(ClientKey(f"m{i}", CLASS, f"id:g:mate{i}")) for i in range(16)]
    assert all(isinstance(t, Ticket) for t in mates)  # none refused
    pushed = [t for t in bots if isinstance(t, Ticket) and t.state == "pushed"]
    assert len(pushed) == 16
    with pytest.raises(Refused):
        pushed[0].position()
    # Every classmate starts within the first 8 rounds of 3 s sleepers on 2 workers (its own
    # class's fair share: 16 classmates over 2 workers), not behind the 67 bots.
    started = {}
    for r in range(40):
        for i, t in enumerate(mates):
            if t.state != "waiting":
                started.setdefault(i, r)
        clock[0] += 3.0
        for t in [t for t in list(q._live) if t.state == "running"]:
            t.used = True
            t.release()
    assert len(started) == 16 and max(started.values()) <= 2 * 8, started


def test_a_submit_cancelled_while_waiting_is_neither_graded_nor_stored(tmp_path):
    graded = []

    def grade(exercise_id: str, code: str, label: str, learner_id: str | None = None) -> Report:
        graded.append(label)
        raise AssertionError("a cancelled submission was graded")

    serving = Serving.local(ServingSettings(rate_limit=1, new_learners_per_address=1))
    busy = serving.grading.admit(ClientKey("o1", OTHER, "id:g:o1"))
    busy2 = serving.grading.admit(ClientKey("o2", OTHER, "id:g:o2"))  # both workers busy
    with open_gradebook(f"sqlite:///{tmp_path / 'gb.sqlite3'}") as book:
        sub = glue.Submitter(serving=serving, book=book, grade=grade)
        cancel = threading.Event()
        box = {}
        worker = threading.Thread(target=lambda: box.setdefault("out", sub.submit(
            EXERCISE, "x = 1\n", "Ada", "s1", client=ClientKey("s1", CLASS), cancelled=cancel)))
        worker.start()
        time.sleep(0.3)
        assert serving.grading.snapshot(CLASS) == {"running": 0, "waiting": 1}
        cancel.set()
        worker.join(5)
        out = box["out"]
        assert out.reason == "cancelled" and "cancelled" in out.message["en"] and out.message["zh"]
        assert graded == [] and book.count() == 0
        assert serving.grading.snapshot(CLASS) == {"running": 0, "waiting": 0}
        # What it counted came back: the learner's one submission a minute and the address's
        # one new learner are free again.
        ada = glue.rate_key(sub.resolve_learner("Ada"), "s1", CLASS)
        assert serving.limits.admit(ClientKey("s1", CLASS, ada)) is None
    busy.release()
    busy2.release()


def test_closing_the_pages_stream_cancels_a_submission_still_in_line():
    """Gradio closes the generator of a cancelled or abandoned event: the submission waiting
    behind it must hear of it (it used to go on, be graded and stored for nobody)."""
    from webapp.pages.exercises import stream_grading

    seen = {}

    def grade_fn(*, on_wait, cancelled, **kwargs):
        on_wait(3, 9.0)
        seen["cancelled"] = cancelled.wait(5)
        return "not graded"

    stream = stream_grading(grade_fn, "en")
    assert "3" in next(stream)  # its place in line
    stream.close()
    for _ in range(50):
        if "cancelled" in seen:
            break
        time.sleep(0.05)
    assert seen == {"cancelled": True}


def test_minted_one_place_learners_give_way_to_every_classmate_seen_before_them():
    """Second red team, issue 29: ~205 keys minted by one student, one sleeping submission each,
    held the class address's 200 places; 30 of 30 classmates were refused address_full
    (push-out needed a learner holding two places more). Now a learner with no place takes one
    from the learner after it in place order (less service, then seen earlier)."""
    clock = [0.0]
    q = TurnQueue(slots=2, per_address=200, clock=lambda: clock[0])
    mates = [ClientKey(f"m{i}", CLASS, f"id:g:mate{i}") for i in range(30)]
    for m in mates:  # the class has worked a while: each classmate graded once
        t = q.admit(m)
        assert isinstance(t, Ticket)
        t.used = True
        if t.state == "running":
            t.release()
        else:
            t.refund()
    bots = [q.admit(ClientKey(f"bot{b}", CLASS, f"anon:bot{b}")) for b in range(205)]
    assert sum(isinstance(t, Ticket) for t in bots) == 200
    tickets = [q.admit(m) for m in mates]
    assert all(isinstance(t, Ticket) for t in tickets), [t for t in tickets if not isinstance(t, Ticket)]
    assert sum(isinstance(t, Ticket) and t.state == "pushed" for t in bots) == 30
    # The order is strict: a pushed bot back at the door cannot take a classmate's place, and
    # a key minted now (seen after everyone) takes nobody's.
    again = q.admit(ClientKey("bot0", CLASS, "anon:bot0"))
    fresh = q.admit(ClientKey("new-bot", CLASS, "anon:new-bot"))
    assert isinstance(again, Refusal) and isinstance(fresh, Refusal)
    assert all(t.state in ("waiting", "running") for t in tickets)


def test_two_learners_with_one_place_each_never_swap_places():
    q = TurnQueue(slots=1, per_address=2, clock=lambda: 0.0)
    a, b, c = (ClientKey(n, CLASS, f"id:g:{n}") for n in "abc")
    q.admit(a), q.admit(b)  # a runs, b waits: the address is full
    third = q.admit(c)
    assert isinstance(third, Refusal)  # c is newer than b: no place to take
    assert isinstance(q.admit(ClientKey("b2", CLASS, "id:g:b")), Refusal)  # b already holds one


def test_a_classmate_graded_often_still_comes_before_keys_minted_after_them():
    """Third red team: place order put service first, so a fresh key (at the line's lowest
    service) overtook a classmate graded three times while the line was busy: the classmate
    was refused address_full and, holding a ticket, pushed out by a key minted after it."""
    clock = [0.0]
    q = TurnQueue(slots=2, per_address=20, clock=lambda: clock[0])
    hog = q.admit(ClientKey("hog", CLASS, "anon:hog"))  # a long submission keeps running
    mate = ClientKey("m", CLASS, "id:g:mate")
    for _ in range(3):  # graded three times, two seconds each
        t = q.admit(mate)
        assert t.state == "running"
        clock[0] += 2.0
        t.used = True
        t.release()
    bots = [q.admit(ClientKey(f"b{i}", CLASS, f"anon:b{i}")) for i in range(19)]
    assert all(isinstance(b, Ticket) for b in bots) and isinstance(hog, Ticket)
    mine = q.admit(mate)  # the address is full: a bot seen after the classmate gives way
    assert isinstance(mine, Ticket) and sum(b.state == "pushed" for b in bots) == 1
    with pytest.raises(Refused) as out:  # told who took it: a classmate, not another network
        next(b for b in bots if b.state == "pushed").position()
    assert "classmate" in out.value.refusal.message["en"] and "同学" in out.value.refusal.message["zh"]
    fresh = q.admit(ClientKey("f", CLASS, "anon:fresh-key"))
    assert isinstance(fresh, Refusal) and mine.state in ("waiting", "running")


def test_a_full_memory_of_learners_forgets_the_idle_not_the_active(monkeypatch):
    """Third red team: once 100,000 learners were remembered, the newest were forgotten, so a
    classmate seen after the first 90,000 counted as new and was refused behind minted keys."""
    monkeypatch.setattr(TurnQueue, "FIRST_SEEN_MAX", 1000)
    q = TurnQueue(slots=1, per_address=20, clock=lambda: 0.0)
    for i in range(990):  # a long-running server: many learners, long gone
        q.see(ClientKey(f"old{i}", OTHER, f"anon:old{i}"))
    mate = ClientKey("m", CLASS, "id:g:mate")
    t = q.admit(mate)
    t.used = True
    t.release()
    hog = q.admit(ClientKey("hog", CLASS, "anon:hog"))
    bots = [q.admit(ClientKey(f"b{i}", CLASS, f"anon:b{i}")) for i in range(199)]
    assert isinstance(hog, Ticket) and sum(isinstance(b, Ticket) for b in bots) == 19
    assert isinstance(q.admit(mate), Ticket)  # still remembered: a bot gives way
