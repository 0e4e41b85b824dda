"""Exercise additive-attention: the reference agrees with a plain loop; the exercise grades soundly."""

import math

import numpy as np
import pytest
import torch
from soundness import load_reference

EX = "additive-attention"

ref = load_reference(EX)


def _loop(q, k, v, W_q, W_k, w_v, lens):
    """a(q, k) = w_v . tanh(W_q q + W_k k) one pair at a time, softmax over the first L keys."""
    B, n, _ = q.shape
    m = k.shape[1]
    scores = np.zeros((B, n, m))
    weights = np.zeros((B, n, m))
    for b in range(B):
        L = m if lens is None else int(lens[b])
        for i in range(n):
            for j in range(m):
                scores[b, i, j] = w_v @ np.tanh(W_q @ q[b, i] + W_k @ k[b, j])
            e = np.exp(scores[b, i, :L] - scores[b, i, :L].max())
            weights[b, i, :L] = e / e.sum()
    return scores, weights, weights @ v


@pytest.mark.parametrize("masked", [False, True])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_reference_matches_loop(masked, dtype):
    g = torch.Generator().manual_seed(5)
    B, n, m, d_q, d_k, h, d_v = 3, 2, 5, 4, 3, 6, 2

    def r(*s):
        return torch.randn(*s, generator=g, dtype=torch.float64)

    q, k, v, W_q, W_k, w_v = r(B, n, d_q), r(B, m, d_k), r(B, m, d_v), r(h, d_q), r(h, d_k), r(h)
    lens = torch.tensor([2, 5, 3]) if masked else None
    args = [t.to(dtype) for t in (q, k, v, W_q, W_k, w_v)]
    ctx, weights = ref.additive_attention(*args, valid_lens=lens)
    scores = ref.additive_scores(args[0], args[1], *args[3:])
    want_s, want_w, want_c = _loop(*(t.numpy() for t in (q, k, v, W_q, W_k, w_v)),
                                   None if lens is None else lens.numpy())
    tol = 1e-5 if dtype == torch.float32 else 1e-10
    assert ctx.dtype == dtype and ctx.shape == (B, n, d_v) and weights.shape == (B, n, m)
    np.testing.assert_allclose(scores.double().numpy(), want_s, rtol=tol, atol=tol)
    np.testing.assert_allclose(weights.double().numpy(), want_w, rtol=tol, atol=tol)
    np.testing.assert_allclose(ctx.double().numpy(), want_c, rtol=tol, atol=tol)


def test_statement_example():
    s = ref.additive_scores(torch.tensor([[[1.0, 0.0]]]), torch.tensor([[[0.0], [2.0]]]),
                            torch.tensor([[1.0, 0.0]]), torch.tensor([[1.0]]), torch.tensor([2.0]))
    np.testing.assert_allclose(s.numpy(), [[[2 * math.tanh(1.0), 2 * math.tanh(3.0)]]], atol=1e-6)
    np.testing.assert_allclose(s.numpy(), [[[1.5232, 1.9901]]], atol=1e-4)


def test_exercise_is_sound(exercise_sound):
    """Through the sandboxed grader: reference full, starter less, every known mistake named."""
    exercise_sound(EX)
