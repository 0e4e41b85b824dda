"""The rate limit in PostgreSQL holds across processes (app replicas), against a real server."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from webapp.serving.counters import PostgresRateLimiter, SQLiteRateLimiter
from webapp.serving.limits import open_limiter

REPO = Path(__file__).resolve().parents[2]

# One "replica": 4 threads each try `tries` times for the same learner, as fast as they can.
REPLICA = """
import json, sys, threading
from webapp.serving.limits import open_limiter
url, per, tries, go = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
lim = open_limiter(per, 60.0, "submit", url)
import time
time.sleep(max(0.0, go - time.time()))  # both replicas start at the same moment
got = []
def hammer():
    for _ in range(tries):
        got.append(lim.check("id:alice")[0])
threads = [threading.Thread(target=hammer) for _ in range(4)]
[t.start() for t in threads]
[t.join() for t in threads]
print(json.dumps({"accepted": sum(got), "refused": len(got) - sum(got)}))
"""


def test_the_limit_holds_across_two_processes(pg_url):
    go = time.time() + 3.0  # both have imported and connected by then
    procs = [subprocess.Popen([sys.executable, "-c", REPLICA, pg_url, "5", "6", str(go)],
                              cwd=REPO, stdout=subprocess.PIPE, text=True) for _ in range(2)]
    results = [json.loads(p.communicate(timeout=60)[0]) for p in procs]
    assert all(p.returncode == 0 for p in procs)
    # 48 tries in all for one learner from two replicas: exactly 5 accepted, not 5 per replica.
    assert sum(r["accepted"] for r in results) == 5
    assert sum(r["refused"] for r in results) == 43
    third = PostgresRateLimiter(pg_url, 5, 60.0, "submit")
    try:
        ok, wait = third.check("id:alice")  # a third replica sees the same count
        assert not ok and 50 < wait <= 60
        assert third.check("id:bob") == (True, 0.0)  # another learner is not affected
    finally:
        third.close()


def test_window_slides_scopes_apart_and_reset(pg_url):
    lim = PostgresRateLimiter(pg_url, 2, 1.0, "learner")
    other = PostgresRateLimiter(pg_url, 2, 1.0, "address")
    try:
        assert lim.check("k")[0] and lim.check("k")[0]
        ok, wait = lim.check("k")
        assert not ok and 0 < wait <= 1.0
        assert other.check("k")[0]  # same key, other scope: its own count
        time.sleep(1.1)
        assert lim.check("k")[0]  # the oldest attempts left the window
        lim.check("k")
        assert not lim.check("k")[0]
        lim.reset("k")
        assert lim.check("k")[0]
        import psycopg

        with psycopg.connect(pg_url) as conn:  # keys are stored hashed, never as given
            keys = {r[0] for r in conn.execute("SELECT key FROM lab_rate_hits")}
        assert "k" not in keys and all(len(k) == 64 for k in keys)
    finally:
        lim.close()
        other.close()


def test_open_limiter_picks_the_backend(pg_url, tmp_path):
    # Policy change: without PostgreSQL the limit is kept in SQLite (shared by the machine's
    # processes), no longer in this process only.
    for url in ("", "sqlite:///x.db"):
        local = open_limiter(3, 10.0, "x", url=url, data_dir=tmp_path)
        assert type(local) is SQLiteRateLimiter
        local.close()
    lim = open_limiter(3, 10.0, "x", url=pg_url)
    try:
        assert isinstance(lim, PostgresRateLimiter) and lim.per_learner == 3
    finally:
        lim.close()


def test_an_outage_falls_back_to_a_local_limit(pg_url):
    lim = PostgresRateLimiter(pg_url, 2, 60.0, "outage")
    lim._pool.close()  # the database is gone for this replica
    assert lim.check("a")[0] and lim.check("a")[0]
    assert not lim.check("a")[0]  # still limited, in this process
