"""Failed instructor-password tries counted in PostgreSQL: two app replicas share one count."""

from __future__ import annotations

import threading

import pytest

from webapp.serving.counters import PostgresFailureLimiter, shared_failure_limiter
from webapp.serving.ratelimit import FailureLimiter


def replicas(url: str, n: int = 2, **kw) -> list[PostgresFailureLimiter]:
    return [PostgresFailureLimiter(url, **kw) for _ in range(n)]


def test_two_replicas_share_the_per_address_and_overall_counts(pg_url):
    a, b = replicas(pg_url, per_client=5, client_window_s=600, overall=20, overall_window_s=3600)
    try:
        wrong, right = (lambda: False), (lambda: True)
        # One address alternating between replicas: 5 failures in all, then locked on both.
        assert [(a if i % 2 else b).attempt("10.0.0.1", wrong) for i in range(5)] == [(False, 0.0)] * 5
        for limiter in (a, b):
            ok, wait = limiter.attempt("10.0.0.1", right)
            assert not ok and 590 <= wait <= 600
        # 30 more addresses over both replicas, two tries each: the overall 20 is reached at the
        # 15th; from then on every address is throttled to one compared try per 10 minutes.
        results = [(a if i % 2 else b).attempt(f"203.0.113.{i}", wrong) for i in range(30)]
        assert results == [(False, 0.0)] * 30
        again = [(b if i % 2 else a).attempt(f"203.0.113.{i}", wrong) for i in range(30)]
        assert all(not ok and 590 <= w <= 600 for ok, w in again)
        # Not a kill switch: a new address gets its one try (on either replica) ...
        assert b.attempt("198.51.100.7", right) == (True, 0.0)
        assert a.attempt("198.51.100.8", wrong) == (False, 0.0)
        assert 590 <= b.locked_for("198.51.100.8") <= 600
        # ... and a trusted client (logged in before) keeps its five.
        assert [a.attempt("198.51.100.9", wrong, trusted=True) for _ in range(4)] == [(False, 0.0)] * 4
        assert b.attempt("198.51.100.9", right, trusted=True) == (True, 0.0)
        assert 590 <= a.locked_for("10.0.0.1") <= 600
    finally:
        a.close()
        b.close()


def test_parallel_tries_on_two_replicas_are_each_compared_once_within_the_limit(pg_url):
    limiters = replicas(pg_url, per_client=3, overall=None)
    calls: list[int] = []
    lock = threading.Lock()

    def verify() -> bool:
        with lock:
            calls.append(1)
        return False

    threads = [threading.Thread(target=limiters[i % 2].attempt, args=("same", verify))
               for i in range(24)]
    try:
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        assert len(calls) == 3  # 24 tries across two replicas, 3 compared
    finally:
        for limiter in limiters:
            limiter.close()


def test_without_postgres_the_limiter_is_in_this_process(tmp_path):
    assert isinstance(shared_failure_limiter(url=f"sqlite:///{tmp_path / 'x.db'}"), FailureLimiter)
    assert isinstance(shared_failure_limiter(url=""), FailureLimiter)
    with pytest.raises(ValueError):
        shared_failure_limiter(per_client=0, url="")


@pytest.mark.parametrize("backend", ["memory", "postgresql"])
def test_past_the_cap_a_gate_holds_back_tries_uncompared_and_uncounted(backend, request):
    """Issue 29: past the overall cap, tries from names that cost nothing to mint (fresh
    browser keys) must also pass a shared rate; one it holds back is neither compared nor
    counted, and trusted clients and tries under the cap never meet it."""
    if backend == "memory":
        limiter = FailureLimiter(per_client=5, client_window_s=600, overall=3)
    else:
        limiter = PostgresFailureLimiter(request.getfixturevalue("pg_url"), per_client=5,
                                         overall=3)
    compared: list[str] = []

    def wrong(name: str):
        return lambda: compared.append(name) or False

    shut = lambda: (False, 4.0)  # noqa: E731 - a gate with no room
    try:
        for i in range(3):  # under the cap the gate is not asked
            assert limiter.attempt(f"k{i}", wrong(f"k{i}"), over_cap_gate=shut) == (False, 0.0)
        assert limiter.attempt("k9", wrong("k9"), over_cap_gate=shut) == (False, 4.0)
        assert "k9" not in compared
        assert limiter.attempt("k9", wrong("k9")) == (False, 0.0)  # not counted: one try left
        assert limiter.attempt("old", lambda: True, trusted=True, over_cap_gate=shut) == (True, 0.0)
    finally:
        if backend != "memory":
            limiter.close()
