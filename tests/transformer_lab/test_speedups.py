"""The Transformer's speed-ups change no number: padding to 16 positions and the decoder cache."""

import pytest
import torch

from transformer_lab import speedups
from transformer_lab.speedups import DecoderCache
from transformer_lab.transformer import Transformer, TransformerConfig

D, H, FF = 16, 4, 32


@pytest.fixture(autouse=True)
def one_thread():
    """Tiny ops on a shared 2-core box run ~10x slower with 2 torch threads than with 1."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def small_cfg(**kw) -> TransformerConfig:
    base = dict(src_vocab=11, tgt_vocab=9, d_model=D, heads=H, layers=2, d_ff=FF)
    base.update(kw)
    return TransformerConfig(**base)


@pytest.mark.parametrize("norm_first", [False, True])
def test_cached_decode_steps_equal_full_recomputation(norm_first):
    torch.manual_seed(10)
    model = Transformer(small_cfg(norm_first=norm_first)).eval()
    src, lens = torch.randint(3, 11, (3, 6)), torch.tensor([6, 4, 2])
    tgt = torch.randint(1, 9, (3, 20))  # past 16 positions: the cache has to grow once
    full = model(src, lens, tgt)  # teacher forcing: the independent reference
    with torch.no_grad():
        state = model.encode(src, lens)
        for t in range(1, 21):
            logits, cross = model.decode_step(tgt[:, :t], state)
            torch.testing.assert_close(logits, full[:, t - 1], atol=1e-5, rtol=1e-5)
            assert state.cache is not None and state.cache.tokens.shape == (3, t)
        maps = model.attention_maps(src, lens, tgt)["cross"][-1]
        torch.testing.assert_close(cross, maps[:, :, -1], atol=1e-5, rtol=1e-5)
        # Beam search: one source repeated, prefix rows reordered between steps. The stale
        # cache must be detected and not used.
        rep_src, rep_lens, order = src[:1].expand(3, -1), lens[:1].expand(3), torch.tensor([2, 0, 1])
        expected = model(rep_src, rep_lens, tgt[order, :6])[:, 5]
        state = model.encode(rep_src, rep_lens)
        model.decode_step(tgt[:, :5], state)
        logits, _ = model.decode_step(tgt[order, :6], state)
        torch.testing.assert_close(logits, expected, atol=1e-5, rtol=1e-5)


def test_padding_to_16_changes_no_logit_map_or_gradient(monkeypatch):
    # pad_for_fast_softmax is a speed-up only: with it switched off (MIN_ATTN_LEN = 1, no
    # padding) the model must give the same logits, attention maps and gradients.
    torch.manual_seed(6)
    model = Transformer(small_cfg(norm_first=True))
    src, lens, tgt = torch.randint(3, 11, (2, 6)), torch.tensor([6, 3]), torch.randint(1, 9, (2, 5))

    def run():
        model.zero_grad()
        logits = model(src, lens, tgt)
        logits.square().sum().backward()
        return logits.detach(), model.attention_maps(src, lens, tgt), {
            n: p.grad.clone() for n, p in model.named_parameters() if p.grad is not None}

    padded = run()
    assert speedups.pad_for_fast_softmax(src, 0, 256).shape == (2, 16)
    monkeypatch.setattr(speedups, "MIN_ATTN_LEN", 1)
    assert speedups.pad_for_fast_softmax(src, 0, 256).shape == (2, 6)
    plain = run()
    torch.testing.assert_close(padded[0], plain[0], atol=1e-5, rtol=1e-4)
    for kind in padded[1]:
        for a, b in zip(padded[1][kind], plain[1][kind], strict=True):
            torch.testing.assert_close(a, b, atol=1e-5, rtol=1e-4)
    assert padded[2].keys() == plain[2].keys()
    for name in padded[2]:
        torch.testing.assert_close(padded[2][name], plain[2][name], atol=1e-5, rtol=1e-4)


def test_decode_step_with_autograd_on_keeps_no_cache_and_stays_exact():
    torch.manual_seed(11)
    model = Transformer(small_cfg()).eval()
    src, lens, tgt = torch.randint(3, 11, (2, 5)), torch.tensor([5, 3]), torch.randint(1, 9, (2, 4))
    with torch.no_grad():
        full = model(src, lens, tgt)
    state = model.encode(src, lens)
    for t in range(1, 5):
        logits, _ = model.decode_step(tgt[:, :t], state)
        assert state.cache is None, "a cache built with autograd on would hold graph tensors"
        torch.testing.assert_close(logits, full[:, t - 1], atol=1e-5, rtol=1e-5)
    logits.sum().backward()  # the step is differentiable
    assert model.out.weight.grad is not None


def test_cache_grows_sixteen_positions_at_a_time_and_refuses_other_prefixes():
    tokens = torch.tensor([[1, 4, 5], [1, 6, 7]])  # (B, t)
    cache = DecoderCache(tokens, [torch.zeros(2, 16, D), torch.zeros(2, 16, D)])
    with torch.no_grad():
        assert cache.continues(torch.tensor([[1, 4, 5, 8], [1, 6, 7, 3]]))
        assert not cache.continues(torch.tensor([[1, 6, 7, 3], [1, 4, 5, 8]]))  # rows swapped
        assert not cache.continues(torch.tensor([[1, 4, 5, 8, 8], [1, 6, 7, 3, 3]]))  # two new
    assert not cache.continues(torch.tensor([[1, 4, 5, 8], [1, 6, 7, 3]]))  # autograd on
    prefix = torch.randint(1, 9, (2, 16))
    keep = cache.extend(prefix)
    assert keep.shape == (1, 16) and keep.all()
    x = torch.randn(2, 1, D)
    assert cache.write(1, x) is cache.inputs[1]
    torch.testing.assert_close(cache.inputs[1][:, 15], x[:, 0])
    keep = cache.extend(torch.randint(1, 9, (2, 17)))  # one past the buffer: grow by 16
    assert cache.inputs[0].shape == (2, 32, D)
    assert keep.tolist() == [[True] * 17 + [False] * 15]
    torch.testing.assert_close(cache.inputs[1][:, 15], x[:, 0])  # growing keeps what was there
