"""MultiHeadAttention against torch.nn.MultiheadAttention and D2L's shape check."""

import pytest
import torch
from torch import nn

from transformer_lab.attention import causal_mask
from transformer_lab.fused_attention import whole_layer_fits
from transformer_lab.multihead import MultiHeadAttention


def _pair(e=16, h=4, seed=0):
    torch.manual_seed(seed)
    ref = nn.MultiheadAttention(e, h, batch_first=True).eval()
    ours = MultiHeadAttention(e, h).load_from_torch(ref).eval()
    return ours, ref


@pytest.mark.parametrize("need_weights", [True, False])
def test_matches_torch_self_attention(need_weights):
    ours, ref = _pair()
    x = torch.randn(3, 7, 16)
    out, w = ours(x, x, x, need_weights=need_weights)
    ref_out, ref_w = ref(x, x, x, need_weights=True, average_attn_weights=False)
    torch.testing.assert_close(out, ref_out, atol=1e-5, rtol=1e-4)
    if need_weights:
        assert w.shape == (3, 4, 7, 7)
        torch.testing.assert_close(w, ref_w, atol=1e-5, rtol=1e-4)
    else:
        assert w is None


def test_matches_torch_cross_attention_with_padding_and_causal_mask():
    ours, ref = _pair(seed=1)
    q, kv = torch.randn(2, 5, 16), torch.randn(2, 6, 16)
    lens = torch.tensor([6, 3])
    pad = torch.arange(6)[None] >= lens[:, None]  # torch: True = ignore
    out, w = ours(q, kv, kv, valid_lens=lens, need_weights=True)
    ref_out, ref_w = ref(q, kv, kv, key_padding_mask=pad, average_attn_weights=False)
    torch.testing.assert_close(out, ref_out, atol=1e-5, rtol=1e-4)
    torch.testing.assert_close(w, ref_w, atol=1e-5, rtol=1e-4)
    assert torch.all(w[1, :, :, 3:] == 0)
    x = torch.randn(2, 5, 16)
    fused, _ = ours(x, x, x, mask=causal_mask(5))
    ref_c, _ = ref(x, x, x, attn_mask=~causal_mask(5))
    torch.testing.assert_close(fused, ref_c, atol=1e-5, rtol=1e-4)


def test_d2l_shape_check_with_separate_sizes():
    attn = MultiHeadAttention(100, 5, dropout=0.5, bias=False, query_size=100,
                              key_size=100, value_size=100).eval()
    x, y = torch.ones(2, 4, 100), torch.ones(2, 6, 100)
    out, w = attn(x, y, y, valid_lens=torch.tensor([3, 2]), need_weights=True)
    assert out.shape == (2, 4, 100) and w.shape == (2, 5, 4, 6)
    attn2 = MultiHeadAttention(40, 4, query_size=12, key_size=20, value_size=7)
    out2, _ = attn2(torch.randn(2, 3, 12), torch.randn(2, 9, 20), torch.randn(2, 9, 7))
    assert out2.shape == (2, 3, 40)


def test_fused_and_weights_paths_agree_and_grads():
    torch.manual_seed(4)
    attn = MultiHeadAttention(24, 3)
    x = torch.randn(2, 6, 24, dtype=torch.float64)
    attn = attn.double()
    a, _ = attn(x, x, x, valid_lens=torch.tensor([[1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1]]))
    b, w = attn(x, x, x, valid_lens=torch.tensor([[1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1]]),
                need_weights=True)
    torch.testing.assert_close(a, b)
    b.sum().backward()
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in attn.parameters())


def test_heads_are_independent_slices():
    # Head i only sees features [i*d_k, (i+1)*d_k) of each projection.
    torch.manual_seed(5)
    attn = MultiHeadAttention(8, 2).eval()
    x = torch.randn(1, 4, 8)
    _, w = attn(x, x, x, need_weights=True)
    q, k = attn.W_q(x), attn.W_k(x)
    for i in range(2):
        s = q[0, :, i * 4:(i + 1) * 4] @ k[0, :, i * 4:(i + 1) * 4].T / 2
        torch.testing.assert_close(w[0, i], torch.softmax(s, -1))


def test_bad_input():
    with pytest.raises(ValueError, match="not divisible by heads=3"):
        MultiHeadAttention(10, 3)
    attn = MultiHeadAttention(8, 2)
    with pytest.raises(ValueError, match="expects 8"):
        attn(torch.randn(1, 2, 6), torch.randn(1, 2, 8), torch.randn(1, 2, 8))
    with pytest.raises(ValueError, match="empty"):
        attn(torch.randn(1, 0, 8), torch.randn(1, 2, 8), torch.randn(1, 2, 8))
    with pytest.raises(TypeError, match="boolean"):
        x = torch.randn(1, 2, 8)
        attn(x, x, x, mask=torch.ones(2, 2))


def test_inference_fast_path_equals_the_explicit_math():
    # eval + no_grad + unmasked self-attention takes torch's fused inference kernel.
    ours, ref = _pair(e=32, h=4, seed=7)
    x = torch.randn(5, 9, 32)
    assert not whole_layer_fits(ours, x, x, x, None)  # autograd on
    with torch.no_grad():
        assert whole_layer_fits(ours, x, x, x, None)
        fast, _ = ours(x, x, x)
        ours.fused = False  # the lesson's explicit maths (with fused on, no_grad eval runs the kernel)
        explicit, _ = ours(x, x, x, need_weights=True)
        ours.fused = True
        ref_out, _ = ref(x, x, x, need_weights=False)
    torch.testing.assert_close(fast, explicit, atol=1e-5, rtol=1e-4)
    torch.testing.assert_close(fast, ref_out, atol=1e-5, rtol=1e-4)
    with torch.no_grad():
        assert not whole_layer_fits(ours.train(), x, x, x, None)
