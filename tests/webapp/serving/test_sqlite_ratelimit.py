"""webapp.serving.counters in SQLite: the app's default limiter, a sliding window kept in one
private SQLite file that every limiter object (and process) on it counts against. Hand clock."""

from __future__ import annotations

import os
import sqlite3
import stat
import threading

import pytest

from webapp.serving.counters import SQLiteRateLimiter
from webapp.serving.limits import LIMITS_FILENAME, open_limiter
from webapp.serving.ratelimit import RateLimiter


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def path(tmp_path):
    return tmp_path / "data" / LIMITS_FILENAME  # its folder does not exist yet


def limiter(path, per=3, window=10.0, scope="learner", clock=None):
    lim = SQLiteRateLimiter(path, per, window, scope, clock=clock or Clock())
    return lim


def test_sliding_window_with_hand_computed_waits(path):
    clock = Clock()
    lim = limiter(path, clock=clock)
    try:
        for t in (1000.0, 1001.0, 1002.0):
            clock.t = t
            assert lim.check("ada") == (True, 0.0)
        clock.t = 1004.0
        assert lim.check("ada") == (False, 6.0)  # the 1000.0 attempt leaves the window at 1010.0
        clock.t = 1009.5
        assert lim.check("ada") == (False, 0.5)  # refused tries were not counted
        assert lim.check("bob") == (True, 0.0)  # keys do not share a budget
        clock.t = 1010.0
        assert lim.check("ada") == (True, 0.0)  # 1000.0 has left: 1001, 1002, 1010
        assert lim.check("ada") == (False, 1.0)
        clock.t = 1030.0
        assert [lim.check("ada")[0] for _ in range(4)] == [True, True, True, False]
        assert (lim.per_learner, lim.window_s, lim.scope) == (3, 10.0, "learner")
    finally:
        lim.close()


def test_refund_gives_back_the_latest_attempt(path):
    clock = Clock()
    lim = limiter(path, per=2, clock=clock)
    try:
        assert lim.check("ada")[0]
        clock.t = 1001.0
        assert lim.check("ada")[0] and not lim.check("ada")[0]
        lim.refund("ada")  # another limit refused the 1001.0 attempt after all
        assert lim.check("ada") == (True, 0.0)
        assert lim.check("ada") == (False, 9.0)  # the 1000.0 attempt was kept: out at 1010.0
        lim.refund("nobody")  # nothing to give back: no error
        assert lim.check("nobody") == (True, 0.0)
    finally:
        lim.close()


def test_reset_forgets_one_key_or_the_whole_scope_only(path):
    clock = Clock()
    lim, other = limiter(path, per=1, clock=clock), limiter(path, per=1, scope="address",
                                                            clock=clock)
    try:
        assert lim.check("ada")[0] and lim.check("bob")[0] and other.check("ada")[0]
        assert not lim.check("ada")[0]
        lim.reset("ada")
        assert lim.check("ada")[0] and not lim.check("bob")[0]
        lim.reset()
        assert lim.check("bob")[0]
        assert not other.check("ada")[0]  # another scope's count is untouched by both resets
    finally:
        lim.close()
        other.close()


def test_two_limiters_on_one_file_share_one_count(path):
    clock = Clock()
    a, b = limiter(path, per=5, clock=clock), limiter(path, per=5, clock=clock)
    try:
        got = [(a if i % 2 else b).check("id:alice")[0] for i in range(8)]
        assert got == [True] * 5 + [False] * 3  # 5 in all, not 5 per limiter
        b.refund("id:alice")  # a refund on one is seen by the other
        assert a.check("id:alice")[0] and not b.check("id:alice")[0]
        a.reset("id:alice")
        assert b.check("id:alice")[0]
    finally:
        a.close()
        b.close()


def test_threads_on_two_limiters_never_exceed_the_limit(path):
    limiters = [limiter(path, per=40, window=600.0, clock=Clock()) for _ in range(2)]
    accepted: list[int] = []
    lock = threading.Lock()

    def work(lim) -> None:
        n = sum(lim.check("ada")[0] for _ in range(25))
        with lock:
            accepted.append(n)

    threads = [threading.Thread(target=work, args=(limiters[i % 2],)) for i in range(4)]
    try:
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        assert sum(accepted) == 40  # 100 tries, one window, one count
    finally:
        for lim in limiters:
            lim.close()


def test_a_separate_scope_keeps_its_own_count(path):
    clock = Clock()
    learner, address = limiter(path, per=1, clock=clock), limiter(path, per=1, scope="address",
                                                                 clock=clock)
    try:
        assert learner.check("k")[0] and address.check("k")[0]  # same key, own counts
        assert not learner.check("k")[0] and not address.check("k")[0]
    finally:
        learner.close()
        address.close()


def test_the_file_is_private_and_keys_are_hashed(path):
    old = os.umask(0o022)  # a usual umask: the limiter makes its files private itself
    try:
        lim = limiter(path)
        lim.check("203.0.113.7")
        second = limiter(path)  # reopened while the first is open
        second.check("203.0.113.7")
    finally:
        os.umask(old)
    try:
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
        files = sorted(path.parent.iterdir())
        assert path in files
        for f in files:  # the database and its WAL files alike
            assert stat.S_IMODE(f.stat().st_mode) == 0o600, f.name
        with sqlite3.connect(path) as conn:
            keys = {r[0] for r in conn.execute("SELECT key FROM lab_rate_hits")}
        assert keys and "203.0.113.7" not in keys and all(len(k) == 64 for k in keys)
    finally:
        lim.close()
        second.close()


def test_a_broken_file_falls_back_to_a_limit_in_this_process(path, caplog):
    lim = limiter(path, per=2)
    lim.close()  # the database is gone for this limiter
    assert lim.check("a")[0] and lim.check("a")[0]
    assert not lim.check("a")[0]  # still limited, in this process
    assert "counting in this process" in caplog.text


@pytest.mark.parametrize("kwargs", [dict(per_learner=0), dict(per_learner=2.5),
                                    dict(window_s=0), dict(window_s=float("nan"))])
def test_bad_settings(path, kwargs):
    with pytest.raises(ValueError):
        SQLiteRateLimiter(path, **kwargs)


def test_open_limiter_is_sqlite_in_the_data_folder_without_postgres(tmp_path, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    lim = open_limiter(3, 10.0, "x", url="", data_dir=tmp_path / "d")
    try:
        assert isinstance(lim, SQLiteRateLimiter) and (lim.per_learner, lim.window_s) == (3, 10.0)
        assert (tmp_path / "d" / LIMITS_FILENAME).exists()
    finally:
        lim.close()
    monkeypatch.setenv("LAB_DATA_DIR", str(tmp_path / "env"))  # the app's data folder
    lim = open_limiter(3, 10.0, "x", url="sqlite:///ignored.db")  # a SQLite URL is not PostgreSQL
    try:
        assert isinstance(lim, SQLiteRateLimiter)
        assert (tmp_path / "env" / LIMITS_FILENAME).exists()
        assert not isinstance(lim, RateLimiter)  # shared by every process, not in this one
    finally:
        lim.close()
