"""webapp.serving.ratelimit: the in-process rate limit and its messages, on a hand-driven clock so
every wait is computed by hand (the busy gate is gone: see test_turns_wait.py)."""

from __future__ import annotations

import re
import threading

import pytest

from webapp.serving.ratelimit import RateLimiter, locked_message, wait_message
from webapp.serving.turns import TurnQueue
from webapp.serving.who import ClientKey

CJK = re.compile(r"[\u4e00-\u9fff]")


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def test_sliding_window_with_hand_computed_waits():
    clock = Clock()
    rl = RateLimiter(per_learner=3, window_s=10, clock=clock)
    for t in (1000.0, 1001.0, 1002.0):
        clock.t = t
        assert rl.check("ada") == (True, 0.0)
    clock.t = 1004.0
    assert rl.check("ada") == (False, 6.0)  # the 1000.0 submission leaves the window at 1010.0
    clock.t = 1009.5
    assert rl.check("ada") == (False, 0.5)  # refused tries were not counted: still 1010.0
    assert rl.check("bob") == (True, 0.0)  # learners do not share a budget
    clock.t = 1010.0
    assert rl.check("ada") == (True, 0.0)  # 1000.0 has left; now holds 1001, 1002, 1010
    assert rl.check("ada") == (False, 1.0)  # next to leave: 1001.0 at 1011.0
    clock.t = 1030.0
    assert [rl.check("ada")[0] for _ in range(4)] == [True, True, True, False]


def test_reset_forgets_one_learner_or_everyone():
    clock = Clock()
    rl = RateLimiter(per_learner=1, window_s=60, clock=clock)
    assert rl.check("ada")[0] and rl.check("bob")[0]
    assert not rl.check("ada")[0]
    rl.reset("ada")
    assert rl.check("ada")[0] and not rl.check("bob")[0]
    rl.reset()
    assert rl.check("bob")[0]


def test_threads_never_exceed_the_limit():
    rl = RateLimiter(per_learner=100, window_s=60, clock=Clock())  # frozen clock: one window
    accepted = []
    lock = threading.Lock()

    def work() -> None:
        n = sum(rl.check("ada")[0] for _ in range(50))
        with lock:
            accepted.append(n)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sum(accepted) == 100


def test_memory_stays_bounded_under_a_flood_of_names():
    clock = Clock()
    rl = RateLimiter(per_learner=2, window_s=10, clock=clock, max_tracked=10)
    for i in range(100):
        clock.t += 0.01
        assert rl.check(f"anon-{i}") == (True, 0.0)
    assert len(rl._hits) <= 10
    # Once the window has passed every name is idle: the sweep drops them all, and a learner
    # who is still active keeps their count.
    clock.t += 20
    assert rl.check("ada")[0] and rl.check("ada")[0]
    assert len(rl._hits) == 1
    for i in range(8):
        rl.check(f"new-{i}")
    assert rl.check("ada") == (False, 10.0)


@pytest.mark.parametrize("kwargs", [dict(per_learner=0), dict(per_learner=2.5),
                                    dict(window_s=0), dict(window_s=float("nan"))])
def test_bad_settings(kwargs):
    with pytest.raises(ValueError):
        RateLimiter(**kwargs)


def test_refund_gives_back_the_latest_attempt_only():
    clock = Clock()
    rl = RateLimiter(per_learner=2, window_s=10, clock=clock)
    assert rl.check("ada")[0]
    clock.t += 1
    assert rl.check("ada")[0] and not rl.check("ada")[0]
    rl.refund("ada")  # another limit refused the 1001.0 attempt after all
    assert rl.check("ada") == (True, 0.0)
    assert rl.check("ada") == (False, 10.0 - 1.0)  # 1000.0 still counts, until 1010.0
    rl.refund("nobody")  # nothing to give back: no error, nothing counted
    assert rl.check("nobody")[0]


def test_messages_say_when_in_both_languages():
    msg = wait_message(4.2, per_learner=10, window_s=60)
    assert "try again in 5 s" in msg["en"] and "10 submissions in the last 60 s" in msg["en"]
    assert "5 秒" in msg["zh"] and "60 秒" in msg["zh"] and CJK.search(msg["zh"])
    locked = locked_message(0.2)
    assert "Try again in 1 s (1 min)" in locked["en"] and "1 秒" in locked["zh"]
    assert "600 s (10 min)" in locked_message(599.1)["en"]
    # Policy change: busy_message is gone (no busy gate); a full line's refusal says when instead.
    q = TurnQueue(slots=1, max_waiting=1, typical_s=0.2)
    held = [q.admit(ClientKey("a", "203.0.113.1")), q.admit(ClientKey("b", "203.0.113.2"))]
    full = q.admit(ClientKey("c", "203.0.113.3"))
    assert "retry in 1 s" in full.message["en"] and "1 秒" in full.message["zh"]
    for t in held:
        t.release()
