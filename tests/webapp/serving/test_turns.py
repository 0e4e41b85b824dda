"""webapp.serving.who and turns on their own: which forwarded address is trusted, and the line's
order (the learner is the unit, grouped by address; queue, don't refuse)."""

from __future__ import annotations

import re
import threading
import time

import pytest

from transformer_lab.message import Refusal
from webapp.serving.limits import Limits
from webapp.serving.settings import ServingSettings
from webapp.serving.turns import Ticket, TurnQueue, queue_message
from webapp.serving.who import ClientKey, client_address, client_of_request

CJK = "\u4e00-\u9fff"


# --- client addresses -------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("peer", "forwarded", "hops", "expected"),
    [
        # No trusted proxy: the header is the client's own text and is ignored.
        ("203.0.113.5", "198.51.100.1", 0, "203.0.113.5"),
        ("203.0.113.5", None, 0, "203.0.113.5"),
        # One proxy (a Space): it appends the visitor; whatever the visitor wrote stays left of it.
        ("10.16.3.80", "198.51.100.7", 1, "198.51.100.7"),
        ("10.16.3.80", "1.1.1.1, 8.8.8.8, 198.51.100.7", 1, "198.51.100.7"),
        ("10.16.3.80", ["1.1.1.1", "198.51.100.7"], 1, "198.51.100.7"),  # two header lines
        ("10.16.3.80", ["9.9.9.9, 1.1.1.1", "198.51.100.7"], 1, "198.51.100.7"),
        # Two proxies: the second appends the first's address; the client is second from the right.
        ("10.0.0.2", "6.6.6.6, 198.51.100.7, 10.0.0.1", 2, "198.51.100.7"),
        # Fewer entries than proxies: every entry is a proxy's, the leftmost is the client.
        ("10.0.0.2", "198.51.100.7", 2, "198.51.100.7"),
        # No header at all behind a "proxy": the peer is all we know.
        ("198.51.100.9", None, 1, "198.51.100.9"),
        ("198.51.100.9", ["", " "], 1, "198.51.100.9"),
        # Ports and brackets are dropped; IPv6 counts per /56, IPv4-mapped IPv6 as IPv4.
        ("10.16.3.80", "198.51.100.7:51234", 1, "198.51.100.7"),
        ("10.16.3.80", "[2001:db8:1:2::99]:443", 1, "2001:db8:1::/56"),
        ("10.16.3.80", "2001:db8:1:2aa:aaaa:bbbb:cccc:dddd", 1, "2001:db8:1:200::/56"),
        ("::ffff:198.51.100.7", None, 0, "198.51.100.7"),
        # Garbage written by a proxy is kept as a key of its own, never mistaken for the peer.
        ("10.16.3.80", "1.1.1.1, unknown", 1, "unparsed:unknown"),
    ],
)
def test_client_address_trusts_only_what_our_proxies_appended(peer, forwarded, hops, expected):
    assert client_address(peer, forwarded, hops) == expected


def test_a_spoofed_forwarded_for_changes_nothing_behind_a_proxy():
    """A flooder rotating fake left-hand entries still has one address: the one the proxy saw."""
    seen = {client_address("10.16.3.80", f"192.0.2.{i}, 203.0.113.66", 1) for i in range(50)}
    assert seen == {"203.0.113.66"}
    # Without a trusted proxy the header cannot move the client either.
    seen = {client_address("203.0.113.66", f"192.0.2.{i}", 0) for i in range(50)}
    assert seen == {"203.0.113.66"}


def test_the_same_ipv6_subscriber_is_one_client():
    # One home's /56: every address of each of its 256 /64s is one client (red team 5, N2).
    many = {client_address(f"2001:db8:aa:{net:x}::{i:x}", None, 0)
            for net in range(0, 256, 5) for i in range(1, 40)}
    assert many == {"2001:db8:aa::/56"}
    assert client_address("2001:db8:aa:100::1", None, 0) == "2001:db8:aa:100::/56"  # next home


def test_default_hops_follows_the_space_and_the_override():
    assert ServingSettings.from_env({}).forwarded_hops == 0
    assert ServingSettings.from_env({"SPACE_ID": "me/lab"}).forwarded_hops == 1
    assert ServingSettings.from_env({"SPACE_ID": "me/lab", "LAB_FORWARDED_HOPS": "0"}).forwarded_hops == 0
    assert ServingSettings.from_env({"LAB_FORWARDED_HOPS": "2"}).forwarded_hops == 2
    with pytest.raises(ValueError, match="LAB_FORWARDED_HOPS"):
        ServingSettings.from_env({"LAB_FORWARDED_HOPS": "two"})


# --- admission ---------------------------------------------------------------------------------

def test_a_learners_second_submission_waits_behind_the_first_and_a_flood_is_refused():
    """Issue 17: a second click waits (it used to be refused); past ``per_learner`` tickets in
    line the learner is told why, in both languages, and nothing is held."""
    q = TurnQueue(slots=2, per_learner=2)
    me = ClientKey("s1", "198.51.100.1", "id:g:me")
    first, second = q.admit(me), q.admit(ClientKey("s2", "198.51.100.2", "id:g:me"))
    assert first.state == "running" and second.state == "waiting"  # one turn per learner
    assert second.position() == 1  # although a slot is free
    refused = q.admit(me)
    assert isinstance(refused, Refusal) and refused.reason == "learner_waiting"
    assert "2 submissions in line" in refused.message["en"] and "nothing was stored" in refused.message["en"]
    assert re.search(f"[{CJK}]", refused.message["zh"]) and "排队" in refused.message["zh"]
    other = q.admit(ClientKey("s3", "198.51.100.1", "id:g:you"))
    assert other.state == "running"  # a classmate behind the same address takes the free slot
    first.release()
    assert second.state == "running"
    for t in (second, other):
        t.release()
    second.release()  # a second release is harmless
    assert q.snapshot() == {"running": 0, "waiting": 0}


def test_an_address_grades_on_every_slot_and_only_a_lecture_hall_overflow_is_refused():
    q = TurnQueue(slots=4, per_address=3)
    a = [q.admit(ClientKey(f"s{i}", "203.0.113.66", f"id:{i}")) for i in range(3)]
    assert [t.state for t in a] == ["running"] * 3  # one address, three learners, three slots
    refused = q.admit(ClientKey("s9", "203.0.113.66", "id:9"))
    assert isinstance(refused, Refusal) and refused.reason == "address_full"
    assert "3 submissions in line" in refused.message["en"] and refused.retry_after_s > 0
    assert "排队" in refused.message["zh"] and "未被保存" in refused.message["zh"]
    assert isinstance(q.admit(ClientKey("s-x", "198.51.100.7")), Ticket)  # others unaffected
    assert TurnQueue().per_address == 200  # the default is sized for a lecture hall


def test_the_whole_line_has_a_bound_too():
    q = TurnQueue(slots=1, max_waiting=2)
    held = [q.admit(ClientKey(f"s{i}", f"198.51.100.{i}")) for i in range(3)]  # 1 runs, 2 wait
    refused = q.admit(ClientKey("late", "198.51.100.99"))
    assert isinstance(refused, Refusal) and refused.reason == "queue_full"
    assert "2 submissions are waiting" in refused.message["en"] and "评分队列已满" in refused.message["zh"]
    for t in held:
        t.release()


def test_the_address_rate_limit_ignores_the_typed_name():
    limits = Limits.in_memory(ServingSettings(address_rate_limit=3))
    for i in range(3):  # a new session (and name) each time, one address
        assert limits.admit(ClientKey(f"s{i}", "203.0.113.66", f"name:{i}")) is None
    refused = limits.admit(ClientKey("s-new", "203.0.113.66", "name:new"))
    assert isinstance(refused, Refusal) and refused.reason == "rate_limited"
    assert 0 < refused.retry_after_s <= 60
    assert limits.admit(ClientKey("s-other", "198.51.100.7", "name:x")) is None  # others unaffected


def test_refused_admissions_are_not_counted_by_the_address_limit():
    limits = Limits.in_memory(ServingSettings(rate_limit=1, address_rate_limit=2))
    assert limits.admit(ClientKey("s0", "203.0.113.66", "name:a")) is None
    for i in range(10):  # ten refusals of a spent learner: the address pays nothing
        assert limits.admit(ClientKey(f"s{i}", "203.0.113.66", "name:a")).reason == "rate_limited"
    assert limits.admit(ClientKey("s99", "203.0.113.66", "name:b")) is None  # the 2nd accepted
    limits.refund(ClientKey("s99", "203.0.113.66", "name:b"))  # the line refused it after all
    assert limits.admit(ClientKey("s98", "203.0.113.66", "name:c")) is None


def test_an_address_mints_only_so_many_new_learners():
    """Property 4's bound: browser keys and API labels are free to invent; each one new to an
    address counts, so a tab cannot mint itself unbounded fair shares."""
    limits = Limits.in_memory(ServingSettings(new_learners_per_address=5, rate_limit=100))
    for i in range(5):
        assert limits.admit(ClientKey(f"s{i}", "203.0.113.66", f"id:{i}")) is None
    refused = limits.admit(ClientKey("s5", "203.0.113.66", "id:5"))
    assert refused.reason == "new_learners" and "new learners" in refused.message["en"]
    assert "新开始的学习者" in refused.message["zh"]
    assert limits.admit(ClientKey("s0", "203.0.113.66", "id:0")) is None  # known ones go on
    assert limits.admit(ClientKey("s9", "198.51.100.7", "id:5")) is None  # another address


# --- order --------------------------------------------------------------------------------------

def test_a_newcomer_goes_before_a_flooding_addresses_backlog():
    """One slot; address A has one grading and many waiting (per_address=8 to allow a backlog).
    B arrives last but starts right after A's current job, then A and C take turns."""
    q = TurnQueue(slots=1, per_address=8)
    a = [q.admit(ClientKey(f"a{i}", "203.0.113.66")) for i in range(6)]
    b = q.admit(ClientKey("b", "198.51.100.7"))
    c = q.admit(ClientKey("c", "198.51.100.8"))
    assert a[0].position() == 0
    assert b.position() == 1 and c.position() == 2 and a[1].position() == 3
    started = []
    running = a[0]
    for _ in range(7):
        running.release()
        running = next(t for t in [*a, b, c] if t.state == "running")
        started.append(running.client.session)
    assert started == ["b", "c", "a1", "a2", "a3", "a4", "a5"]
    running.release()
    assert q.snapshot() == {"running": 0, "waiting": 0}


def test_wait_turn_reports_position_and_eta_then_grading():
    q = TurnQueue(slots=1, typical_s=2.0)
    first = q.admit(ClientKey("s1", "198.51.100.1"))
    second = q.admit(ClientKey("s2", "198.51.100.2"))
    seen: list[tuple[int, float]] = []
    waiter = threading.Thread(target=second.wait_turn,
                              args=(lambda pos, eta: seen.append((pos, eta)), 0.05))
    waiter.start()
    time.sleep(0.3)
    # position 1, one typical grading away (less what the running one has had); said once in
    # 0.3 s, not per poll: the rounded ETA has not changed
    assert len(seen) == 1 and seen[0][0] == 1 and seen[0][1] == pytest.approx(2.0, abs=0.1)
    first.release()
    waiter.join(timeout=5)
    assert not waiter.is_alive()
    assert seen[-1] == (0, 0.0)  # its turn came
    second.release()
    with pytest.raises(RuntimeError):
        second.wait_turn()


def test_eta_follows_recent_grading_times():
    clock = [0.0]
    q = TurnQueue(slots=2, typical_s=0.5, clock=lambda: clock[0])
    for i in range(10):  # ten gradings of 4 s each
        t = q.admit(ClientKey(f"s{i}", f"198.51.100.{i}"))
        t.wait_turn()
        clock[0] += 4.0
        t.release()
    assert q.typical_s == pytest.approx(4.0)
    assert q.eta_s(1) == pytest.approx(4.0) and q.eta_s(3) == pytest.approx(8.0)
    for i in range(30):  # left before their turn was taken (Stop, a cache hit): nothing to time
        q.admit(ClientKey(f"r{i}", f"198.51.100.{i}")).release()
    assert q.typical_s == pytest.approx(4.0)


def test_queue_message_is_bilingual_and_rounds_up():
    msg = queue_message(3, 4.2)
    assert "position 3" in msg["en"] and "5 s" in msg["en"]
    assert "第 3 位" in msg["zh"] and "5 秒" in msg["zh"]


def test_many_threads_never_exceed_the_slots_or_one_per_learner():
    q = TurnQueue(slots=2, per_learner=3)
    lock = threading.Lock()
    running: dict[str, int] = {}
    peak = {"total": 0, "per_learner": 0}
    refused = []

    def client(i: int) -> None:
        learner = f"id:{i % 4}"
        t = q.admit(ClientKey(f"s{i}", "198.51.100.1", learner))
        if isinstance(t, Refusal):
            refused.append(i)
            return
        t.wait_turn(poll_s=0.01)
        with lock:
            running[learner] = running.get(learner, 0) + 1
            peak["total"] = max(peak["total"], sum(running.values()))
            peak["per_learner"] = max(peak["per_learner"], running[learner])
        time.sleep(0.02)
        with lock:
            running[learner] -= 1
        t.release()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(40)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=20)
    assert peak == {"total": 2, "per_learner": 1}
    assert q.snapshot() == {"running": 0, "waiting": 0}
    assert len(refused) < 40


class _Req:
    def __init__(self, peer: str, forwarded: str | None, session: str = "s") -> None:
        self.client = type("C", (), {"host": peer})()
        self.headers = {"x-forwarded-for": forwarded} if forwarded else {}
        self.session_hash = session


def test_a_private_address_behind_a_trusted_proxy_is_reported_once(caplog):
    """On a Space every visitor is public: a private entry means a proxy hop was miscounted."""
    from webapp.serving import who

    saved = who._WARNED_PRIVATE[0]
    who._WARNED_PRIVATE[0] = False
    try:
        with caplog.at_level("WARNING", logger="transformer_lab.app"):
            assert client_of_request(_Req("10.16.3.80", "198.51.100.7"), 1).address == "198.51.100.7"
            assert not caplog.records
            for _ in range(3):
                key = client_of_request(_Req("10.16.3.80", "198.51.100.7, 10.16.0.9"), 1)
                assert key == ClientKey("s", "10.16.0.9")
        assert len(caplog.records) == 1 and "LAB_FORWARDED_HOPS" in caplog.text
    finally:
        who._WARNED_PRIVATE[0] = saved


def test_a_refusal_by_the_line_gives_the_new_learner_place_back():
    limits = Limits.in_memory(ServingSettings(new_learners_per_address=1, rate_limit=100))
    ada = ClientKey("s1", "203.0.113.66", "id:ada")
    new = limits.is_new(ada)
    assert new and limits.admit(ada) is None
    limits.refund(ada, new)  # the line was full: nothing of Ada's stays counted
    bob = ClientKey("s2", "203.0.113.66", "id:bob")
    assert limits.admit(bob) is None  # the address's one new-learner place was free again
    assert not limits.is_new(bob)


def test_the_eta_counts_what_the_running_turns_have_had():
    """A learner behind two 9 s gradings was told "about 1 s" for 8 s (new-learner pass): a
    running turn older than the typical one is expected to run as long again."""
    clock = [0.0]
    q = TurnQueue(slots=2, typical_s=0.5, clock=lambda: clock[0])
    slow = [q.admit(ClientKey(f"s{i}", f"198.51.100.{i}")) for i in range(2)]
    me = q.admit(ClientKey("me", "198.51.100.9"))
    assert q.eta_s(me.position()) == pytest.approx(0.5)  # both just started
    clock[0] = 0.2
    assert q.eta_s(me.position()) == pytest.approx(0.3)  # the ETA counts down
    clock[0] = 4.0  # both long past the typical turn
    assert q.eta_s(me.position()) == pytest.approx(4.0)
    for t in (*slow, me):
        t.release()
