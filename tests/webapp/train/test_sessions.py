"""webapp.train.sessions on its own: the Train page's per-session stop flags and last
runs are bounded, released per session, and safe to use from many request threads."""

from __future__ import annotations

import threading

import pytest

from webapp.train.sessions import TrainSessions


def test_last_runs_are_kept_per_session_and_the_oldest_go_first():
    store = TrainSessions(max_sessions=3)
    for i in range(5):
        store.put(f"s{i}", f"run {i}")
    assert len(store) == 3
    assert [store.get(f"s{i}") for i in range(5)] == [None, None, "run 2", "run 3", "run 4"]
    store.put("s2", "run 2b")  # a new run moves its session to the newest place
    store.put("s5", "run 5")
    assert [store.get(s) for s in ("s2", "s3", "s4", "s5")] == ["run 2b", None, "run 4", "run 5"]
    assert store.get(None) is None and store.get("") is None
    store.put(None, "an API run")  # no session: nobody could ask for it
    assert len(store) == 3
    with pytest.raises(ValueError, match="max_sessions"):
        TrainSessions(max_sessions=0)


def test_stop_sets_only_the_sessions_own_flag_and_a_finished_run_leaves_the_next_ones():
    store = TrainSessions()
    mine, yours = store.start("me"), store.start("you")
    assert store.stop("me") is True
    assert mine.is_set() and not yours.is_set()
    assert store.stop("nobody") is False and store.stop(None) is False
    newer = store.start("me")  # the same browser starts again before the old stream closes
    store.finish("me", mine)  # the old run's generator closes late: the new flag stays
    assert store.stop("me") is True and newer.is_set()
    store.finish("me", newer)
    assert store.stop("me") is False  # nothing left to stop


def test_release_drops_the_sessions_run_and_stops_its_stream_only():
    store = TrainSessions()
    store.put("gone", "its model")
    store.put("stays", "other model")
    flag, other = store.start("gone"), store.start("stays")
    assert store.release("gone") is True
    assert store.get("gone") is None and flag.is_set()  # nobody is left to watch that run
    assert store.get("stays") == "other model" and not other.is_set()
    assert store.release("gone") is False and store.release(None) is False
    store.start("only-a-flag")
    assert store.release("only-a-flag") is True


def test_many_threads_keep_the_bound_and_every_session_finds_its_own_run():
    store = TrainSessions(max_sessions=8)
    errors = []

    def learner(i: int) -> None:
        for round_ in range(200):
            flag = store.start(f"s{i}")
            store.put(f"s{i}", (i, round_))
            got = store.get(f"s{i}")
            if got is not None and got[0] != i:
                errors.append((i, got))
            store.finish(f"s{i}", flag)

    threads = [threading.Thread(target=learner, args=(i,)) for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and len(store) == 8
    assert all(store.stop(f"s{i}") is False for i in range(16))  # every flag was finished
