"""TrainSessions' byte budget (issue 29, item 7): counts alone did not bound memory (16 runs of
the largest model from one address are ~530 MB, 64 in all ~2 GB). Each run is charged what it
holds of its own when it is put; an address past its budget gives way with its own oldest runs,
a full store with those of the address holding the most bytes; a shared replay costs only its
references."""

from __future__ import annotations

import pytest
import torch

from webapp.train.sessions import (
    MAX_BYTES_PER_ADDRESS,
    RUN_OVERHEAD_BYTES,
    TrainSessions,
    run_bytes,
    tensor_bytes,
)

MB = 2**20


def sized(n_mb: int) -> dict:
    return {"mb": n_mb}


def store(**kw) -> TrainSessions:
    return TrainSessions(measure=lambda run: run["mb"] * MB, **kw)


def test_an_address_past_its_byte_budget_gives_way_with_its_own_oldest():
    s = store(max_bytes_per_address=100 * MB, max_bytes=1000 * MB)
    s.put("victim", sized(30), address="198.51.100.7")
    for i in range(10):  # 10 × 30 MB from one address, fresh sessions
        assert s.put(f"a{i}", sized(30), address="203.0.113.9")
    assert s.get("victim") is not None
    assert s.held_bytes("203.0.113.9") <= 100 * MB
    assert [s.get(f"a{i}") is not None for i in range(10)] == [False] * 7 + [True] * 3


def test_a_full_store_drops_the_oldest_of_the_address_holding_most_bytes():
    s = store(max_bytes_per_address=100 * MB, max_bytes=150 * MB)
    s.put("small", sized(10), address="198.51.100.7")
    s.put("b1", sized(60), address="203.0.113.9")
    s.put("c1", sized(50), address="192.0.2.1")
    s.put("b2", sized(40), address="203.0.113.9")  # 160 MB: 203.0.113.9 holds most
    assert s.held_bytes() <= 150 * MB
    assert s.get("b1") is None and all(s.get(k) is not None for k in ("small", "c1", "b2"))


def test_a_run_larger_than_an_addresss_budget_is_not_kept():
    s = store(max_bytes_per_address=50 * MB)
    assert s.put("s", sized(10), address="203.0.113.9")
    assert not s.put("s", sized(60), address="203.0.113.9")  # its older run goes too
    assert s.get("s") is None and len(s) == 0
    with pytest.raises(ValueError, match="byte budgets"):
        TrainSessions(max_bytes=0)


def test_run_bytes_counts_weights_snapshots_and_records_and_shared_runs_by_reference():
    class Run:
        model = torch.nn.Linear(256, 256)  # 257 × 256 floats
        snapshots = [{"maps": {"cross": [torch.zeros(8, 10, 10)]}}]
        records = [{"step": 1}] * 10
        shared = False

    weights = 257 * 256 * 4
    own = run_bytes(Run())
    assert own >= weights + 8 * 100 * 4 + RUN_OVERHEAD_BYTES
    Run.shared = True
    assert run_bytes(Run()) < 8192 and run_bytes(Run(), shared_too=True) == own
    t = torch.zeros(1000)
    assert tensor_bytes([t, t[:10], {"x": t}]) == 4000  # one storage, counted once
    assert 30 * MB * 4 <= MAX_BYTES_PER_ADDRESS  # four runs of the largest model fit
