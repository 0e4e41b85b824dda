"""Scoring functions against F.scaled_dot_product_attention and the lesson's numbers."""

import math

import pytest
import torch
import torch.nn.functional as F

from transformer_lab.attention import (
    AdditiveAttention,
    DotProductAttention,
    causal_mask,
    key_padding_mask,
    masked_softmax,
    scaled_dot_product_attention,
    valid_lens_mask,
)

Q = torch.tensor([[1.0, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 1]])
V = torch.tensor([[1.0, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]])


def test_lesson_exercise_one_numbers():
    out, weights = scaled_dot_product_attention(Q, Q, V)
    scores = Q @ Q.T / 2
    assert torch.equal(scores, torch.tensor([[1.0, 0, 1], [0, 1, 1], [1, 1, 2]]))
    expected = torch.tensor(
        [[0.4223, 0.1554, 0.4223], [0.1554, 0.4223, 0.4223], [0.2119, 0.2119, 0.5761]]
    )
    torch.testing.assert_close(weights, expected, atol=1e-4, rtol=0)
    torch.testing.assert_close(out[0], torch.tensor([5.0, 6, 7, 8]), atol=1e-4, rtol=0)


def test_d2l_valid_lens_1d_and_2d():
    torch.manual_seed(0)
    x = torch.rand(2, 2, 4)
    w = masked_softmax(x, torch.tensor([2, 3]))
    assert torch.all(w[0, :, 2:] == 0) and torch.all(w[1, :, 3:] == 0)
    torch.testing.assert_close(w[0, :, :2], F.softmax(x[0, :, :2], -1))
    w2 = masked_softmax(x, torch.tensor([[1, 3], [2, 4]]))
    assert torch.all(w2[0, 0, 1:] == 0) and torch.all(w2[0, 1, 3:] == 0)
    assert torch.all(w2[1, 0, 2:] == 0)
    torch.testing.assert_close(w2[1, 1], F.softmax(x[1, 1], -1))


def test_fully_masked_row_is_uniform_like_d2l():
    w = masked_softmax(torch.randn(1, 2, 3), torch.tensor([0]))
    torch.testing.assert_close(w, torch.full((1, 2, 3), 1 / 3))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_sdpa_matches_torch_with_mask(dtype):
    torch.manual_seed(1)
    q, k, v = torch.randn(3, 2, 5, 8, dtype=dtype), torch.randn(3, 2, 7, 8, dtype=dtype), \
        torch.randn(3, 2, 7, 6, dtype=dtype)
    mask = torch.rand(3, 1, 5, 7) > 0.3
    mask[..., 0] = True  # never hide every key of a query
    out, weights = scaled_dot_product_attention(q, k, v, mask=mask)
    ref = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    torch.testing.assert_close(out, ref)
    assert torch.all(weights.masked_select(~mask.expand_as(weights)) == 0)
    torch.testing.assert_close(weights.sum(-1), torch.ones(3, 2, 5, dtype=dtype))


def test_causal_mask_and_future_independence():
    m = causal_mask(4)
    assert m.tolist() == [[True, False, False, False], [True, True, False, False],
                          [True, True, True, False], [True, True, True, True]]
    torch.manual_seed(2)
    x = torch.randn(1, 6, 4)
    out1, _ = scaled_dot_product_attention(x, x, x, mask=causal_mask(6))
    y = x.clone()
    y[:, 4:] = torch.randn(1, 2, 4)
    out2, _ = scaled_dot_product_attention(y, y, y, mask=causal_mask(6))
    torch.testing.assert_close(out1[:, :4], out2[:, :4])
    assert not torch.allclose(out1[:, 4:], out2[:, 4:])


def test_key_padding_mask_matches_valid_lens():
    lens = torch.tensor([3, 1])
    assert torch.equal(key_padding_mask(lens, 4).expand(2, 5, 4), valid_lens_mask(lens, 5, 4))


def test_scaling_keeps_variance_near_one():
    torch.manual_seed(0)
    d = 256
    q, k = torch.randn(4000, d), torch.randn(4000, d)
    raw = (q * k).sum(-1)
    assert abs(raw.var().item() / d - 1) < 0.1
    assert abs((raw / math.sqrt(d)).var().item() - 1) < 0.1


def test_additive_attention_d2l_shapes_and_mask():
    torch.manual_seed(0)
    queries, keys = torch.normal(0, 1, (2, 1, 20)), torch.ones((2, 10, 2))
    values = torch.arange(40, dtype=torch.float32).reshape(1, 10, 4).repeat(2, 1, 1)
    attn = AdditiveAttention(query_size=20, key_size=2, num_hiddens=8).eval()
    out, w = attn(queries, keys, values, valid_lens=torch.tensor([2, 6]))
    assert out.shape == (2, 1, 4) and w.shape == (2, 1, 10)
    # Keys are identical, so the weights are uniform over the valid keys.
    torch.testing.assert_close(w[0, 0, :2], torch.full((2,), 0.5))
    torch.testing.assert_close(w[1, 0, :6], torch.full((6,), 1 / 6))
    torch.testing.assert_close(out[0, 0], values[0, :2].mean(0))


def test_additive_matches_formula():
    torch.manual_seed(3)
    attn = AdditiveAttention(3, 5, 7)
    q, k, v = torch.randn(1, 2, 3), torch.randn(1, 4, 5), torch.randn(1, 4, 2)
    _, w = attn(q, k, v)
    wq, wk, wv = attn.W_q.weight, attn.W_k.weight, attn.w_v.weight[0]
    for i in range(2):
        scores = torch.stack([wv @ torch.tanh(wq @ q[0, i] + wk @ k[0, j]) for j in range(4)])
        torch.testing.assert_close(w[0, i], torch.softmax(scores, 0))


def test_gradients_flow_and_masked_keys_get_none():
    q = torch.randn(1, 2, 4, requires_grad=True)
    k = torch.randn(1, 3, 4, requires_grad=True)
    v = torch.randn(1, 3, 4, requires_grad=True)
    out, _ = DotProductAttention()(q, k, v, valid_lens=torch.tensor([2]))
    out.sum().backward()
    assert q.grad.abs().sum() > 0
    assert torch.all(v.grad[0, 2] == 0) and torch.all(k.grad[0, 2] == 0)


def test_bad_input_messages():
    with pytest.raises(ValueError, match="feature size"):
        scaled_dot_product_attention(torch.randn(2, 3), torch.randn(2, 4), torch.randn(2, 4))
    with pytest.raises(ValueError, match="empty"):
        scaled_dot_product_attention(torch.randn(0, 3), torch.randn(2, 3), torch.randn(2, 3))
    with pytest.raises(ValueError, match="valid_lens"):
        masked_softmax(torch.randn(2, 2, 4), torch.tensor([1, 2, 3]))
    with pytest.raises(ValueError, match=r"\[0, 4\]"):
        masked_softmax(torch.randn(2, 2, 4), torch.tensor([1, 5]))
    with pytest.raises(TypeError, match="boolean"):
        masked_softmax(torch.randn(2, 2), mask=torch.ones(2, 2))
    with pytest.raises(ValueError, match="broadcast"):
        masked_softmax(torch.randn(2, 2), mask=torch.ones(3, 3, dtype=torch.bool))


def test_masked_softmax_leaves_the_callers_scores_alone_unless_inplace():
    scores = torch.tensor([[[1.0, 2.0, 3.0], [0.5, 0.5, 0.5]]])  # (1, 2, 3)
    before = scores.clone()
    weights = masked_softmax(scores, torch.tensor([2]))
    assert torch.equal(scores, before), "the default must not write into its input"
    e = math.e
    torch.testing.assert_close(weights[0, 0], torch.tensor([1 / (1 + e), e / (1 + e), 0]))
    again = masked_softmax(scores, torch.tensor([2]), inplace=True)
    torch.testing.assert_close(again, weights)
    assert scores[0, 0, 2] == torch.finfo(torch.float32).min  # filled where it lay


@pytest.mark.parametrize("masked", [False, True])
def test_sdpa_gradients_equal_finite_differences(masked):
    # The scores are scaled through q and masked in place: autograd must still be exact.
    g = torch.Generator().manual_seed(3)
    q, k, v = (torch.randn(2, 3, n, 4, generator=g, dtype=torch.float64, requires_grad=True)
               for n in (5, 6, 6))
    mask = torch.rand(2, 1, 5, 6, generator=g) > 0.4 if masked else None
    if masked:
        mask[..., 0] = True

    def f(q, k, v):
        out, weights = scaled_dot_product_attention(q, k, v, mask=mask)
        return out, weights

    assert torch.autograd.gradcheck(f, (q, k, v))
    out, _ = f(q, k, v)
    expected = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    torch.testing.assert_close(out, expected)
