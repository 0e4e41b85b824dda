"""Training turns: a cached run replays at once even while the slot is taken; a miss shows its
place and ETA, trains when its turn comes and is stored; Stop while waiting gives the place up;
a long queue offers a cached shorter run."""

from __future__ import annotations

import dataclasses
import threading
import time

import pytest
import torch
from perf_support import within

from transformer_lab.message import Refused
from webapp.services.run_cache import FileRunCache
from webapp.serving.settings import ServingSettings
from webapp.serving.turns import TurnQueue
from webapp.serving.who import ClientKey
from webapp.serving.wing import Serving
from webapp.train import train_config, train_queue, training
from webapp.train.train_queue import run_or_replay

TINY = dict(heads=2, d_model=8, layers=1, d_ff=16)


@pytest.fixture
def serving():
    """A serving wing of this test's own, handed to run_or_replay (the app's is not touched)."""
    return Serving.local(ServingSettings(train_slots=1, train_per_address=64))


@pytest.fixture
def queue(serving):
    q = serving.training  # one run per session, typical run 10 s (wing.TRAIN_TYPICAL_S)
    assert isinstance(q, TurnQueue) and (q.slots, q.per_address, q.per_learner) == (1, 64, 1)
    assert q.typical_s == 10.0
    return q


@pytest.fixture
def cache(tmp_path):
    return FileRunCache(tmp_path / "runs", 2**26)


def new(steps: int = 12, stop=None) -> training.Run:
    torch.set_num_threads(1)
    return training.new_run(training.page_config("reverse", **TINY, steps=steps), stop)


def play(run, cache, client=None, on_msg=None, serving=None) -> list[dict]:
    """Drive run_or_replay as the page does (apply every non-queue message), in ``serving``'s
    training line (always the test's own: never the app's)."""
    assert serving is not None
    seen = []
    for msg in run_or_replay(run, training.stream, client, cache, serving):
        seen.append(msg)
        if on_msg:
            on_msg(msg)
        if "queued" not in msg:
            training.apply(run, msg)
    return seen


@pytest.mark.perf
def test_miss_waits_with_position_then_trains_and_stores_then_hits(serving, queue, cache):
    blocker = queue.admit(ClientKey("other", "10.0.0.1"))  # someone else is training
    assert blocker.position() == 0
    run = new()
    got: list[dict] = []
    worker = threading.Thread(target=play, args=(run, cache, ClientKey("me", "10.0.0.2"),
                                                 got.append, serving))
    t0 = time.monotonic()
    worker.start()
    while not got and time.monotonic() - t0 < 5:
        time.sleep(0.02)
    # one typical run (10 s) away, less what the blocker's run has had already (it counts down)
    assert got and got[0]["queued"] == 1 and got[0]["eta_s"] == pytest.approx(10.0, abs=1.0)
    within(time.monotonic() - t0, 1.0, "a queued run's place shown")
    assert "position 1" in got[0]["message"]["en"] and "第 1 位" in got[0]["message"]["zh"]
    assert not run.records  # nothing trained while it waits
    blocker.release()
    worker.join(60)
    assert "summary" in got[-1] and run.summary["stopped"] != "stop_flag"
    assert queue.snapshot() == {"running": 0, "waiting": 0}
    assert cache.stores == 1
    # The same settings again: replayed from the cache, even while the slot is taken.
    blocker = queue.admit(ClientKey("other", "10.0.0.1"))
    again = new()
    t0 = time.monotonic()
    msgs = play(again, cache, ClientKey("you", "10.0.0.3"), serving=serving)
    within(time.monotonic() - t0, 2.0, "a cached run replayed while the slot is taken")
    assert all(m.get("cached") for m in msgs)
    assert not any("queued" in m for m in msgs) and len(msgs) > 2
    assert again.history.equals(run.history)
    batch = training.example_batch(run, 8)
    with torch.no_grad():
        assert torch.equal(again.model(batch.src, batch.src_lens, batch.tgt_in),
                           run.model(batch.src, batch.src_lens, batch.tgt_in))
    blocker.release()


def test_stop_while_waiting_gives_the_place_up_and_trains_nothing(serving, queue, cache):
    blocker = queue.admit(ClientKey("other", "10.0.0.1"))
    stop = threading.Event()
    run = new(stop=stop)
    with pytest.raises(Refused) as err:
        play(run, cache, ClientKey("me", "10.0.0.2"), on_msg=lambda m: stop.set(),
             serving=serving)
    assert "Stopped while waiting" in err.value.message["en"] and "排队" in err.value.message["zh"]
    assert not run.records and cache.stores == 0
    assert queue.snapshot() == {"running": 1, "waiting": 0}
    blocker.release()


def test_one_run_per_browser_session(serving, queue, cache):
    blocker = queue.admit(ClientKey("me", "10.0.0.1"))
    with pytest.raises(Refused) as err:
        play(new(), cache, ClientKey("me", "10.0.0.1"), serving=serving)
    assert "already have a training run" in err.value.message["en"]
    blocker.release()


def test_a_long_queue_offers_a_cached_shorter_run(serving, queue, cache):
    play(new(steps=6), cache, serving=serving)  # a 6-step run of these settings is cached
    # The offer threshold is a setting of the wing now (LAB_TRAIN_OFFER_S, read once).
    serving.settings = dataclasses.replace(serving.settings, train_offer_s=5.0)
    blocker = queue.admit(ClientKey("other", "10.0.0.1"))
    stop = threading.Event()
    run = new(steps=12, stop=stop)
    msgs = []
    with pytest.raises(Refused):
        play(run, cache, ClientKey("me", "10.0.0.2"),
             on_msg=lambda m: (msgs.append(m), stop.set()), serving=serving)
    assert msgs[0]["offer"] == 6
    assert "with 6 steps are already trained" in msgs[0]["message"]["en"]
    assert "6 步" in msgs[0]["message"]["zh"]
    blocker.release()
    # A short queue offers nothing.
    serving.settings = dataclasses.replace(serving.settings, train_offer_s=60.0)
    blocker = queue.admit(ClientKey("other", "10.0.0.1"))
    stop.clear()
    msgs.clear()
    with pytest.raises(Refused):
        play(new(steps=12, stop=stop), cache, ClientKey("me", "10.0.0.2"),
             on_msg=lambda m: (msgs.append(m), stop.set()), serving=serving)
    assert msgs[0]["offer"] is None and "already trained" not in msgs[0]["message"]["en"]
    blocker.release()


def test_warm_presets_trains_once_then_finds_them(serving, queue, cache, monkeypatch):
    tr = train_config
    real = tr.page_preset
    # The real presets take minutes on 2 cores: the same code path on tiny versions of them.
    monkeypatch.setattr(tr, "page_preset", lambda task: tr.rechoose(real(task), **TINY, steps=8))
    monkeypatch.setattr(train_config, "PAGE_START", {"task": "reverse", "steps": 6})
    first = train_queue.warm_presets(("reverse", "sort"), ("sinusoidal", "none"), cache,
                                     serving=serving)
    assert [(t, p, n) for t, p, n, _ in first] == [
        ("reverse", "sinusoidal", 6), ("reverse", "sinusoidal", 8), ("reverse", "none", 8),
        ("sort", "sinusoidal", 8), ("sort", "none", 8)]
    assert not any(c for *_, c in first) and cache.stores == 5
    again = train_queue.warm_presets(("reverse", "sort"), ("sinusoidal", "none"), cache,
                                     serving=serving)
    assert all(c for *_, c in again) and cache.stores == 5


def test_the_same_run_asked_twice_trains_once(serving, queue, cache):
    """Two learners press Train on the same settings together: one trains, the other waits
    for that run ('another learner is training exactly this run') and replays it."""
    blocker = queue.admit(ClientKey("other", "10.0.0.1"))
    first, second = new(), new()
    seen: dict[str, list] = {"a": [], "b": []}
    ta = threading.Thread(target=play, args=(first, cache, ClientKey("a", "10.0.0.2"),
                                             seen["a"].append, serving))
    ta.start()
    while not seen["a"]:
        time.sleep(0.02)
    tb = threading.Thread(target=play, args=(second, cache, ClientKey("b", "10.0.0.3"),
                                             seen["b"].append, serving))
    tb.start()
    t0 = time.monotonic()
    while not seen["b"] and time.monotonic() - t0 < 5:
        time.sleep(0.02)
    assert seen["b"][0]["queued"] == 0 and "exactly this run" in seen["b"][0]["message"]["en"]
    assert queue.snapshot() == {"running": 1, "waiting": 1}  # only the first holds a place
    blocker.release()
    ta.join(60)
    tb.join(60)
    assert cache.stores == 1
    assert all(m.get("cached") for m in seen["b"][1:]) and not seen["a"][-1].get("cached")
    assert second.history.equals(first.history)
    assert serving.twins.runs == {}
