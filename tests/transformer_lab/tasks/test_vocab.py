"""Vocab ordering and lookups, Batch helpers, checked against hand-worked examples."""

import pytest
import torch

from transformer_lab.tasks import BOS, EOS, PAD, UNK, Batch, Vocab, decode_ids, shift_right


def test_reserved_tokens_take_ids_0_to_3():
    v = Vocab(["hello"])
    assert v.to_tokens([0, 1, 2, 3]) == ["<pad>", "<bos>", "<eos>", "<unk>"]
    assert (PAD, BOS, EOS, UNK) == (0, 1, 2, 3)
    assert v["<eos>"] == 2 and v["hello"] == 4 and len(v) == 5


def test_order_is_frequency_then_alphabetical():
    # counts: a 2, b 2, c 1, d 1 -> ties broken alphabetically
    v = Vocab(["b", "d", "a", "c", "a", "b"])
    assert v.itos[4:] == ["a", "b", "c", "d"]
    v = Vocab(["z", "z", "z", "y", "x", "x"])
    assert v.itos[4:] == ["z", "x", "y"]


def test_nested_lists_are_flattened_like_d2l():
    flat = Vocab(["i", "lost", ".", "i", "won", "."])
    nested = Vocab([["i", "lost", "."], ["i", "won", "."]])
    assert flat.itos == nested.itos


def test_min_freq_sends_rare_tokens_to_unk():
    v = Vocab(["a", "a", "b"], min_freq=2)
    assert "b" not in v and v["b"] == UNK
    assert v.lookup(["a", "b", "never-seen"]) == [4, UNK, UNK]


def test_lookup_and_to_tokens_round_trip():
    v = Vocab([["il", "est", "calme", "."]])
    ids = v.lookup(["il", "est", "calme", "."])
    assert v[["il", "est"]] == ids[:2]
    assert v.to_tokens(ids) == ["il", "est", "calme", "."]
    assert v.to_tokens(torch.tensor(ids)) == ["il", "est", "calme", "."]
    assert v.to_tokens(torch.tensor(ids[0])) == "il"


def test_from_ordered_keeps_the_given_order():
    v = Vocab.from_ordered(["s10", "s2", "s1"])  # alphabetical order would differ
    assert v.lookup(["s10", "s2", "s1"]) == [4, 5, 6]


def test_bad_input_gives_clear_errors():
    v = Vocab(["a"])
    with pytest.raises(ValueError, match="outside this vocabulary"):
        v.to_tokens(99)
    with pytest.raises(ValueError, match="reserved tokens must start"):
        Vocab(["a"], reserved=("<unk>", "<pad>"))
    with pytest.raises(TypeError, match="strings"):
        Vocab([["a", 3]])
    with pytest.raises(ValueError, match="min_freq"):
        Vocab(["a"], min_freq=-1)
    with pytest.raises(TypeError, match="list of tokens"):
        v.lookup("a")
    with pytest.raises(ValueError, match="distinct"):
        Vocab.from_ordered(["a", "a"])


def test_decode_ids_stops_at_eos_and_skips_pad_and_bos():
    v = Vocab([["va", "!"]])
    va, bang = v["va"], v["!"]
    assert decode_ids(v, [BOS, va, bang, EOS, va, PAD]) == "va !"
    assert decode_ids(v, torch.tensor([[va, PAD, bang]])) == "va !"
    assert decode_ids(v, []) == ""


def test_shift_right_matches_hand_example():
    tgt_out = torch.tensor([[7, 8, 9, EOS], [5, EOS, PAD, PAD]])
    lens = torch.tensor([4, 2])
    expected = torch.tensor([[BOS, 7, 8, 9], [BOS, 5, PAD, PAD]])
    assert torch.equal(shift_right(tgt_out, lens), expected)


def test_batch_to_moves_every_tensor_and_indexing_keeps_rows():
    b = Batch(
        src=torch.tensor([[4, 2], [5, 2]]), src_lens=torch.tensor([2, 2]),
        tgt_in=torch.tensor([[1, 4], [1, 5]]), tgt_out=torch.tensor([[4, 2], [5, 2]]),
        tgt_lens=torch.tensor([2, 2]),
    )
    moved = b.to("meta")  # a device every CPU build has
    assert all(t.device.type == "meta" for t in vars(moved).values())
    assert all(t.device.type == "cpu" for t in vars(b).values())  # original untouched
    row = b[1]
    assert row.batch_size == 1 and torch.equal(row.src, torch.tensor([[5, 2]]))
    assert len(b[torch.tensor([1, 0, 1])]) == 3
