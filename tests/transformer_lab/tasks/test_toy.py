"""Toy copy/reverse/sort tasks: targets checked row by row against plain Python."""

import pytest
import torch

from transformer_lab.tasks import BOS, EOS, ToyTask, ToyTaskConfig
from transformer_lab.tasks.toy import heldout_seed


def python_answer(kind: str, symbols: list[int]) -> list[int]:
    """Independent reference: what each task asks for, with plain list operations."""
    return {"copy": list(symbols), "reverse": symbols[::-1], "sort": sorted(symbols)}[kind]


def check_batch(task: ToyTask, batch) -> None:
    cfg = task.cfg
    width = cfg.max_len + 1
    for t in (batch.src, batch.tgt_in, batch.tgt_out):
        assert t.dtype == torch.long and t.shape == (len(batch), width)
    for i in range(len(batch)):
        n = int(batch.src_lens[i]) - 1  # number of symbols
        assert cfg.min_len <= n <= cfg.max_len
        src = batch.src[i].tolist()
        symbols = src[:n]
        assert all(4 <= s < 4 + cfg.vocab_size for s in symbols)
        assert src[n] == EOS and src[n + 1 :] == [0] * (width - n - 1)
        answer = python_answer(cfg.kind, symbols)
        assert int(batch.tgt_lens[i]) == n + 1
        assert batch.tgt_out[i].tolist() == answer + [EOS] + [0] * (width - n - 1)
        assert batch.tgt_in[i].tolist() == [BOS] + answer + [0] * (width - n - 1)


@pytest.mark.parametrize("kind", ["copy", "reverse", "sort"])
@pytest.mark.parametrize("lengths", [(8, 12), (1, 3), (5, 5)])
def test_targets_match_python_reference(kind, lengths):
    task = ToyTask(ToyTaskConfig(kind=kind, min_len=lengths[0], max_len=lengths[1]))
    check_batch(task, task.sample(64, torch.Generator().manual_seed(1)))


def test_large_vocab_and_long_sequences():
    task = ToyTask(ToyTaskConfig(kind="sort", min_len=200, max_len=256, vocab_size=1000))
    check_batch(task, task.sample(4, torch.Generator().manual_seed(2)))


def test_all_lengths_are_drawn():
    task = ToyTask(ToyTaskConfig(min_len=8, max_len=12))
    lens = task.sample(2000, torch.Generator().manual_seed(0)).src_lens - 1
    assert set(lens.tolist()) == set(range(8, 13))


def test_symbol_names():
    assert ToyTask(ToyTaskConfig(vocab_size=10)).vocab.itos[4:] == [str(i) for i in range(10)]
    assert ToyTask(ToyTaskConfig(vocab_size=26)).vocab.itos[4:][:3] == ["a", "b", "c"]
    v = ToyTask(ToyTaskConfig(vocab_size=120)).vocab
    assert v["s000"] == 4 and v["s119"] == 123 and len(v) == 124


def test_same_seed_same_batches_different_seed_different():
    task = ToyTask()
    a = task.sample(32, torch.Generator().manual_seed(5))
    b = task.sample(32, torch.Generator().manual_seed(5))
    c = task.sample(32, torch.Generator().manual_seed(6))
    assert torch.equal(a.src, b.src) and torch.equal(a.tgt_out, b.tgt_out)
    assert not torch.equal(a.src, c.src)


def test_own_stream_is_seeded_by_config_and_advances():
    first = ToyTask(ToyTaskConfig(seed=3)).sample(16)
    again = ToyTask(ToyTaskConfig(seed=3))
    assert torch.equal(again.sample(16).src, first.src)
    assert not torch.equal(again.sample(16).src, first.src)  # the stream moved on


def test_heldout_is_fixed_and_from_another_stream():
    cfg = ToyTaskConfig(kind="reverse", seed=0)
    task = ToyTask(cfg)
    held = task.heldout(500)
    check_batch(task, held)
    assert torch.equal(ToyTask(cfg).heldout(500).src, held.src)  # same on every instance
    # not the training stream: the first training batch of the same seed is different
    assert not torch.equal(task.sample(500, torch.Generator().manual_seed(cfg.seed)).src, held.src)
    assert heldout_seed(cfg.seed) != cfg.seed
    # and drawing it leaves the training stream where it was
    fresh = ToyTask(cfg)
    task2 = ToyTask(cfg)
    task2.heldout(100)
    assert torch.equal(task2.sample(8).src, fresh.sample(8).src)
    assert not torch.equal(ToyTask(ToyTaskConfig(seed=1)).heldout(500).src, held.src)


def test_encode_expected_and_decode():
    task = ToyTask(ToyTaskConfig(kind="reverse"))
    src, lens = task.encode_source("3 1 4")
    assert src.shape == (1, 13) and lens.tolist() == [4]
    assert src[0, :4].tolist() == [7, 5, 8, EOS]
    assert task.expected(["3", "1", "4"]) == ["4", "1", "3"]
    assert ToyTask(ToyTaskConfig(kind="sort")).expected(["3", "1", "4", "1"]) == ["1", "1", "3", "4"]
    assert task.decode_target(torch.tensor([8, 5, 7, EOS, 6])) == "4 1 3"
    with pytest.raises(ValueError, match="empty"):
        task.encode_source("  ")
    with pytest.raises(ValueError, match="unknown symbols"):
        task.encode_source("3 x")


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"min_len": 12, "max_len": 8}, ValueError, "must not be larger"),
        ({"vocab_size": 1}, ValueError, "vocab_size"),
        ({"max_len": 257}, ValueError, "limited to 256"),
        ({"min_len": 0}, ValueError, "at least 1"),
        ({"kind": "shuffle"}, ValueError, "unknown toy task kind"),
        ({"vocab_size": 10.0}, TypeError, "integer"),
    ],
)
def test_bad_configs_raise_clear_errors(kwargs, error, message):
    with pytest.raises(error, match=message):
        ToyTaskConfig(**kwargs)


def test_bad_sample_arguments():
    task = ToyTask()
    with pytest.raises(ValueError, match="batch_size"):
        task.sample(0)
    with pytest.raises(TypeError, match="torch.Generator"):
        task.sample(4, generator=0)
