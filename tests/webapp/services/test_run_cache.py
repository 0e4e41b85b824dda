"""Run cache: a hit gives back the stored run (history and model outputs), keys follow every
setting, the byte bound holds with LRU eviction, stopped runs are never stored; on files and,
with TEST_DATABASE_URL, on PostgreSQL (as replicas share it)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import threading

import pytest
import torch
from pg_support import fresh_schema

from transformer_lab.experiments import ExperimentConfig
from webapp.services import run_cache
from webapp.services.run_cache import CachedRun, FileRunCache, run_key
from webapp.train import training

TINY = dict(heads=2, d_model=8, layers=1, d_ff=16, steps=12)


@pytest.fixture
def pg_url():
    """A URL whose connections see a fresh schema (dropped afterwards)."""
    with fresh_schema("runcache_test") as url:
        yield url


@pytest.fixture(params=["files", "postgresql"])
def make_cache(request, tmp_path):
    made = []

    def make(max_bytes: int = 64 * 2**20):
        if request.param == "files":
            cache = FileRunCache(tmp_path / f"cache{len(made)}", max_bytes)
        else:
            from webapp.services.run_cache_backends import PostgresRunCache

            cache = PostgresRunCache(request.getfixturevalue("pg_url"), max_bytes)
        made.append(cache)
        return cache

    yield make
    for cache in made:
        cache.close()


def trained(stop: threading.Event | None = None, **over) -> training.Run:
    run = training.new_run(training.page_config("reverse", **{**TINY, **over}), stop)
    for msg in training.stream(run):
        training.apply(run, msg)
    return run


@pytest.fixture(scope="module")
def finished() -> training.Run:
    torch.set_num_threads(1)
    return trained()


def outputs(run: training.Run) -> torch.Tensor:
    batch = training.example_batch(run, 16)
    run.model.eval()
    with torch.no_grad():  # logits of the held-out examples under teacher forcing: (16, T, V)
        return run.model(batch.src, batch.src_lens, batch.tgt_in)


def test_hit_returns_the_stored_history_and_model_outputs(make_cache, finished):
    cache = make_cache()
    key = run_key(finished.config)
    assert cache.get(key) is None
    assert cache.put(key, run_cache.entry_of(finished))
    entry = cache.get(key)
    assert entry is not None and cache.hits == 1 and cache.misses == 1
    # Replayed into a fresh, untrained model exactly as the page does on a hit.
    fresh = training.new_run(finished.config)
    assert not torch.equal(outputs(fresh), outputs(finished))
    messages = list(run_cache.replay(entry, finished.trainer.cfg.steps, pause_s=0))
    assert len(messages) > 1 and "state" in messages[-1] and "state" not in messages[0]
    steps = [m["step"] for m in messages]
    assert steps == sorted(steps)
    for msg in messages:
        training.apply(fresh, msg)
    assert fresh.history.equals(finished.history)
    assert fresh.summary == finished.summary
    assert len(fresh.snapshots) == len(finished.snapshots)
    for a, b in zip(fresh.snapshots, finished.snapshots, strict=True):
        assert a["step"] == b["step"] and a["labels"] == b["labels"]
        for k in a["maps"]:
            assert all(torch.equal(x, y) for x, y in zip(a["maps"][k], b["maps"][k], strict=True))
    assert torch.equal(outputs(fresh), outputs(finished))
    assert training.predictions(fresh).equals(training.predictions(finished))


def test_the_same_settings_train_the_same_run(finished):
    """What makes a hit honest: the same key trains to the same weights and history."""
    again = trained()
    assert run_key(again.config) == run_key(finished.config)
    cols = ["phase", "step", "loss", "token_acc"]
    assert again.history[cols].equals(finished.history[cols])
    assert torch.equal(outputs(again), outputs(finished))


def test_the_key_changes_with_every_setting(finished):
    base = finished.config
    key = run_key(base)
    assert run_key(dataclasses.replace(base)) == key  # a copy is the same run
    assert run_key(base.replace(task="sort")) != key
    assert run_key(base, version="other-library") != key
    seen = {key}
    for f in dataclasses.fields(base):
        if f.name == "task":
            continue
        value = getattr(base, f.name)
        if isinstance(value, bool):
            changed = not value
        elif isinstance(value, (int, float)):
            changed = value + 1
        elif value is None:
            changed = 0.5 if f.name == "target" else 7  # a size left at the task's default
        else:
            changed = f"{value}-other"
        other = run_key(base.replace(**{f.name: changed}))
        assert other not in seen, f.name
        seen.add(other)
    assert len(seen) == len(dataclasses.fields(base))  # every setting but the task, plus base


def test_keys_stay_those_of_the_settings_dicts_the_app_hashed_before():
    """Typed configs hash to the keys the app stored runs under when it passed dicts (what the
    page's first view and the translate preset were, written out), so a pinned version keeps
    its runs."""
    def old_key(task: str, settings: dict) -> str:
        body = {"format": run_cache.FORMAT, "version": "pinned", "task": task, "settings": settings}
        return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":"),
                                         default=repr).encode()).hexdigest()

    reverse = {"batch_size": 128, "corpus": "bundled", "d_ff": 64, "d_model": 32,
               "device": "cpu", "dropout": 0.0, "eval_every": 25, "heads": 4,
               "label_smoothing": 0.0, "layers": 1, "lr": 0.003, "model": "transformer",
               "pe": "sinusoidal", "schedule": "noam", "seed": 0, "steps": 600, "target": 0.998,
               "val_size": 256, "warmup": 100}
    translate = {**reverse, "batch_size": 64, "d_ff": 128, "d_model": 64, "dropout": 0.1,
                 "eval_every": 250, "label_smoothing": 0.1, "lr": 0.005, "schedule": "cosine",
                 "steps": 1500, "target": None}
    page = training.page_config("reverse", heads=4, d_model=32, layers=1, d_ff=64, dropout=0.0,
                                pe="sinusoidal", steps=600, device="cpu", seed=0,
                                model="transformer", corpus="bundled")
    assert run_key(page, "pinned") == old_key("reverse", reverse)
    assert run_key(training.first_view(), "pinned") == old_key("reverse", reverse)
    assert run_key(training.page_preset("translate").replace(corpus="bundled"),
                   "pinned") == old_key("translate", translate)
    assert run_key(page.replace(seed=1), "pinned") != old_key("reverse", reverse)


def test_library_version_names_the_source():
    version = run_cache.library_version()
    assert version.startswith("0.") and "+torch" in version and "+src" in version


def fake_entry(size: int, seed: int) -> CachedRun:
    gen = torch.Generator().manual_seed(seed)
    state = {"w": torch.rand(size // 4, generator=gen)}  # float32: ~size bytes
    return CachedRun([{"phase": "train", "step": 1, "loss": 1.0}], [], {"steps": 1,
                     "stopped": "max_steps"}, state)


def test_eviction_respects_the_byte_bound_least_recently_used_first(make_cache):
    one = len(run_cache.encode(fake_entry(100_000, 0)))
    cache = make_cache(max_bytes=int(one * 3.5))  # room for three entries
    keys = [run_key(ExperimentConfig(seed=i)) for i in range(6)]
    for i in range(3):
        assert cache.put(keys[i], fake_entry(100_000, i))
    assert cache.total_bytes() <= cache.max_bytes
    assert cache.get(keys[0]) is not None  # keys[0] is now the most recently used
    cache.put(keys[3], fake_entry(100_000, 3))  # evicts keys[1], the least recently used
    assert cache.contains(keys[0]) and not cache.contains(keys[1])
    assert cache.contains(keys[2]) and cache.contains(keys[3])
    for i in (4, 5):
        cache.put(keys[i], fake_entry(100_000, i))
        assert cache.total_bytes() <= cache.max_bytes
    assert [cache.contains(k) for k in keys] == [False, False, False, True, True, True]
    got = cache.get(keys[5])
    assert torch.equal(got.state["w"], fake_entry(100_000, 5).state["w"])
    assert not cache.put(keys[0], fake_entry(one * 4, 9))  # larger than the whole cache
    assert not cache.contains(keys[0])


def test_a_stopped_run_is_not_stored(make_cache):
    stop = threading.Event()
    c = training.page_config("reverse", **{**TINY, "steps": 5000})  # far from done at the first message
    run = training.new_run(c, stop)
    for msg in training.stream(run):
        training.apply(run, msg)
        stop.set()  # Stop pressed while it trains
    assert run.summary["stopped"] == "stop_flag" and run.summary["steps"] < 5000
    cache = make_cache()
    key = run_key(run.config)
    assert not cache.put(key, run_cache.entry_of(run))
    assert not cache.contains(key) and cache.get(key) is None and cache.total_bytes() == 0


def test_a_damaged_entry_is_a_miss_and_is_dropped(tmp_path):
    cache = FileRunCache(tmp_path, 2**20)
    key = run_key(ExperimentConfig(seed=1))
    (tmp_path / f"{key}.run").write_bytes(b"\x80\x04not a torch file")
    assert cache.get(key) is None and not cache.contains(key)
    with pytest.raises(ValueError):
        cache.contains("../../etc/passwd")


def test_replicas_share_the_postgres_cache(pg_url, finished):
    """A run stored through one replica's cache is a hit through another's."""
    from webapp.services.run_cache_backends import PostgresRunCache

    a, b = PostgresRunCache(pg_url, 2**24), PostgresRunCache(pg_url, 2**24)
    try:
        key = run_key(finished.config)
        assert b.get(key) is None
        assert a.put(key, run_cache.entry_of(finished))
        entry = b.get(key)
        assert entry is not None and entry.records == finished.records
    finally:
        a.close()
        b.close()


def test_sessions_replaying_one_run_share_its_records(make_cache, finished):
    """Hits in one process hand out one decoded entry (memory per session stays small); the
    store still hears that the entry is used, so it is not evicted as stale."""
    cache = make_cache()
    key = run_key(finished.config)
    cache.put(key, run_cache.entry_of(finished))
    first, second = cache.get(key), cache.get(key)
    assert first is second and cache.hits == 2
    a, b = (training.new_run(finished.config) for _ in range(2))
    for run in (a, b):
        for msg in run_cache.replay(first, 1, pause_s=0):
            training.apply(run, msg)
    assert a.records[5] is b.records[5] and a.snapshots[-1] is b.snapshots[-1]
    assert all(x.data_ptr() != y.data_ptr()
               for x, y in zip(a.model.parameters(), b.model.parameters(), strict=True))


def test_a_pinned_version_names_the_runs(monkeypatch):
    run_cache.library_version.cache_clear()
    try:
        monkeypatch.setenv("LAB_RUN_CACHE_VERSION", "commit-abc123")
        assert run_cache.library_version() == "commit-abc123"
        one = ExperimentConfig(steps=1)
        assert run_key(one) == run_key(one, "commit-abc123")
    finally:
        run_cache.library_version.cache_clear()
