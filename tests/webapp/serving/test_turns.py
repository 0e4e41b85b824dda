"""webapp.services.fairness on its own: which forwarded address is trusted, and the fair queue's order."""

from __future__ import annotations

import re
import threading
import time

import pytest

from grader.gradebook import RateLimiter
from webapp.services.client_address import client_address, default_hops
from webapp.services.fairness import (
    ClientKey,
    FairQueue,
    Refused,
    Ticket,
    queue_message,
)

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


def test_default_hops_follows_the_space_and_the_override(monkeypatch):
    monkeypatch.delenv("LAB_FORWARDED_HOPS", raising=False)
    monkeypatch.delenv("SPACE_ID", raising=False)
    assert default_hops() == 0
    monkeypatch.setenv("SPACE_ID", "someone/transformer-lab")
    assert default_hops() == 1
    monkeypatch.setenv("LAB_FORWARDED_HOPS", "2")
    assert default_hops() == 2
    monkeypatch.setenv("LAB_FORWARDED_HOPS", "-1")
    with pytest.raises(ValueError, match="LAB_FORWARDED_HOPS"):
        default_hops()


# --- admission ---------------------------------------------------------------------------------

def test_a_second_submission_from_the_same_session_is_refused_in_both_languages():
    q = FairQueue(slots=2)
    first = q.admit(ClientKey("s1", "198.51.100.1"))
    assert isinstance(first, Ticket)
    again = q.admit(ClientKey("s1", "198.51.100.2"))  # same browser, even from another address
    assert isinstance(again, Refused) and again.reason == "already_grading"
    assert "already have a submission being graded" in again.message["en"]
    assert re.search(f"[{CJK}]", again.message["zh"]) and "正在评分" in again.message["zh"]
    first.release()
    assert isinstance(q.admit(ClientKey("s1", "198.51.100.1")), Ticket)  # free again


def test_one_grading_per_address_the_next_waits_and_the_rest_are_refused():
    q = FairQueue(slots=4, per_address=2)
    a1, a2 = (q.admit(ClientKey(f"s{i}", "203.0.113.66")) for i in (1, 2))
    assert a1.position() == 0  # grading
    assert a2.position() == 1  # waits its turn although three slots are free
    refused = q.admit(ClientKey("s3", "203.0.113.66"))
    assert isinstance(refused, Refused) and refused.reason == "already_grading"
    assert "network address" in refused.message["en"] and refused.retry_after_s > 0
    # it says what happened: a2 from the same address is waiting, so not "one at a time"
    assert "one at a time per address" not in refused.message["en"]
    assert "wait their turn" in refused.message["en"] and "排队" in refused.message["zh"]
    assert "只评一份" not in refused.message["zh"]
    assert q.snapshot() == {"running": 1, "waiting": 1}
    a1.release()
    assert a2.position() == 0
    a2.release()
    a1.release()  # a second release is harmless
    assert q.snapshot() == {"running": 0, "waiting": 0}


def test_the_address_rate_limit_ignores_the_typed_name():
    q = FairQueue(slots=4, address_limiter=RateLimiter(per_learner=3, window_s=60))
    for i in range(3):  # a new session (and name) each time, one address
        t = q.admit(ClientKey(f"s{i}", "203.0.113.66"))
        assert isinstance(t, Ticket)
        t.release()
    refused = q.admit(ClientKey("s-new", "203.0.113.66"))
    assert isinstance(refused, Refused) and refused.reason == "rate_limited"
    assert 0 < refused.retry_after_s <= 60
    assert isinstance(q.admit(ClientKey("s-other", "198.51.100.7")), Ticket)  # others unaffected


def test_refused_admissions_are_not_counted_by_the_address_limit():
    q = FairQueue(slots=1, per_address=1, address_limiter=RateLimiter(per_learner=2, window_s=60))
    held = q.admit(ClientKey("s0", "203.0.113.66"))
    for i in range(10):  # ten refusals while one is in flight
        assert isinstance(q.admit(ClientKey(f"s{i + 1}", "203.0.113.66")), Refused)
    held.release()
    assert isinstance(q.admit(ClientKey("s99", "203.0.113.66")), Ticket)  # the 2nd accepted


# --- order --------------------------------------------------------------------------------------

def test_a_newcomer_goes_before_a_flooding_addresses_backlog():
    """One slot; address A has one grading and many waiting (per_address=8 to allow a backlog).
    B arrives last but starts right after A's current job, then A and C take turns."""
    q = FairQueue(slots=1, per_address=8)
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
    q = FairQueue(slots=1, typical_s=2.0)
    first = q.admit(ClientKey("s1", "198.51.100.1"))
    second = q.admit(ClientKey("s2", "198.51.100.2"))
    seen: list[tuple[int, float]] = []
    waiter = threading.Thread(target=second.wait_turn,
                              args=(lambda pos, eta: seen.append((pos, eta)), 0.05))
    waiter.start()
    time.sleep(0.3)
    assert seen == [(1, 2.0)]  # position 1, one typical grading away; said once, not per poll
    first.release()
    waiter.join(timeout=5)
    assert not waiter.is_alive()
    assert seen[-1] == (0, 0.0)  # its turn came
    second.release()
    with pytest.raises(RuntimeError):
        second.wait_turn()


def test_eta_follows_recent_grading_times():
    clock = [0.0]
    q = FairQueue(slots=2, typical_s=0.5, clock=lambda: clock[0])
    for i in range(10):  # ten gradings of 4 s each
        t = q.admit(ClientKey(f"s{i}", f"198.51.100.{i}"))
        t.wait_turn()
        clock[0] += 4.0
        t.release()
    assert q.typical_s == pytest.approx(4.0)
    assert q.eta_s(1) == pytest.approx(4.0) and q.eta_s(3) == pytest.approx(8.0)
    for i in range(30):  # refused after admission (rate limit, busy): no grading to time
        q.admit(ClientKey(f"r{i}", f"198.51.100.{i}")).release()
    assert q.typical_s == pytest.approx(4.0)


def test_queue_message_is_bilingual_and_rounds_up():
    msg = queue_message(3, 4.2)
    assert "position 3" in msg["en"] and "5 s" in msg["en"]
    assert "第 3 位" in msg["zh"] and "5 秒" in msg["zh"]


def test_many_threads_never_exceed_the_slots_or_one_per_address():
    q = FairQueue(slots=2, per_address=3)
    lock = threading.Lock()
    running: dict[str, int] = {}
    peak = {"total": 0, "per_address": 0}
    refused = []

    def client(i: int) -> None:
        address = f"198.51.100.{i % 4}"
        t = q.admit(ClientKey(f"s{i}", address))
        if isinstance(t, Refused):
            refused.append(i)
            return
        t.wait_turn(poll_s=0.01)
        with lock:
            running[address] = running.get(address, 0) + 1
            peak["total"] = max(peak["total"], sum(running.values()))
            peak["per_address"] = max(peak["per_address"], running[address])
        time.sleep(0.02)
        with lock:
            running[address] -= 1
        t.release()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(40)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=20)
    assert peak == {"total": 2, "per_address": 1}
    assert q.snapshot() == {"running": 0, "waiting": 0}
    assert len(refused) < 40


def test_run_in_turn_shares_the_queue_and_can_leave_the_rate_limit_alone():
    from webapp.services import grading_queue

    q = FairQueue(slots=1, address_limiter=RateLimiter(per_learner=1, window_s=60))
    saved = grading_queue.settings().queue
    grading_queue.configure(queue=q)
    try:
        me = ClientKey("s1", "198.51.100.5")
        for _ in range(3):  # public examples: run in turn, never counted
            assert grading_queue.run_in_turn(me, lambda: "ran", count=False) == "ran"
        assert grading_queue.run_in_turn(me, lambda: "graded") == "graded"  # the one counted
        refused = grading_queue.run_in_turn(ClientKey("s2", "198.51.100.5"), lambda: "again")
        assert isinstance(refused, Refused) and refused.reason == "rate_limited"
        # While this session holds a turn, its second run is refused and nothing runs twice.
        held = q.admit(ClientKey("s3", "198.51.100.6"), count=False)
        inner = grading_queue.run_in_turn(ClientKey("s3", "198.51.100.6"), lambda: "twice", count=False)
        assert isinstance(inner, Refused) and inner.reason == "already_grading"
        held.release()
        assert q.snapshot() == {"running": 0, "waiting": 0}
    finally:
        grading_queue.configure(queue=saved)


def test_a_private_address_behind_a_trusted_proxy_is_reported_once(caplog):
    """On a Space every visitor is public: a private entry means a proxy hop was miscounted."""
    from webapp.services import grading_queue

    saved = grading_queue.settings()
    hops, warned = saved.hops, saved.warned_private
    grading_queue.configure(hops=1)
    saved.warned_private = False
    try:
        with caplog.at_level("WARNING", logger="transformer_lab.app"):
            assert grading_queue.client_key("s", "10.16.3.80", "198.51.100.7").address == "198.51.100.7"
            assert not caplog.records
            for _ in range(3):
                key = grading_queue.client_key("s", "10.16.3.80", "198.51.100.7, 10.16.0.9")
                assert key == ClientKey("s", "10.16.0.9")
        assert len(caplog.records) == 1 and "LAB_FORWARDED_HOPS" in caplog.text
    finally:
        grading_queue.configure(hops=hops)
        saved.warned_private = warned
