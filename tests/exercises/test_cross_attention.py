"""Exercise cross-attention: the reference agrees with torch's SDPA and a plain loop, and
matches the statement's worked example; the exercise grades soundly."""

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from soundness import load_reference

EX = "cross-attention"

ref = load_reference(EX)


def _inputs(dtype, B=3, n=2, m=5, d=6, d_k=4, d_v=3, seed=7):
    g = torch.Generator().manual_seed(seed)
    shapes = [(B, n, d), (B, m, d), (d, d_k), (d, d_k), (d, d_v)]
    return [torch.randn(*s, generator=g, dtype=dtype) for s in shapes]


@pytest.mark.parametrize("lens", [None, [2, 5, 1]])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_reference_matches_torch_sdpa(lens, dtype):
    dec, enc, W_q, W_k, W_v = _inputs(dtype)
    valid = None if lens is None else torch.tensor(lens)
    out, weights = ref.cross_attention(dec, enc, W_q, W_k, W_v, enc_valid_lens=valid)
    # torch's boolean attn_mask: True = the key takes part, the convention of the statement
    mask = None if valid is None else (torch.arange(5)[None, None, :] < valid[:, None, None])
    want = F.scaled_dot_product_attention(dec @ W_q, enc @ W_k, enc @ W_v, attn_mask=mask)
    tol = 1e-5 if dtype == torch.float32 else 1e-10
    assert out.dtype == weights.dtype == dtype
    assert out.shape == (3, 2, 3) and weights.shape == (3, 2, 5)
    np.testing.assert_allclose(out.numpy(), want.numpy(), rtol=tol, atol=tol)
    np.testing.assert_allclose(weights.sum(-1).double().numpy(), 1.0, atol=1e-6)
    if valid is not None:
        assert torch.all(weights.masked_select(~mask.expand_as(weights)) == 0)


def test_reference_matches_a_loop_and_leaves_its_inputs():
    dec, enc, W_q, W_k, W_v = _inputs(torch.float64, B=2, n=4, m=3)
    before = [t.clone() for t in (dec, enc, W_q, W_k, W_v)]
    lens = torch.tensor([1, 3])
    out, weights = ref.cross_attention(dec, enc, W_q, W_k, W_v, enc_valid_lens=lens)
    for b in range(2):
        L = int(lens[b])
        for i in range(4):
            s = [float((dec[b, i] @ W_q) @ (enc[b, j] @ W_k)) / 2.0 for j in range(L)]  # √d_k = 2
            e = np.exp(np.array(s) - max(s))
            w = np.concatenate([e / e.sum(), np.zeros(3 - L)])
            np.testing.assert_allclose(weights[b, i].numpy(), w, atol=1e-12)
            np.testing.assert_allclose(out[b, i].numpy(), w @ (enc[b] @ W_v).numpy(), atol=1e-12)
    assert all(torch.equal(x, y) for x, y in zip(before, (dec, enc, W_q, W_k, W_v), strict=True))


def test_statement_example():
    dec = torch.tensor([[[0.0, 0, 0, 0], [2 * math.log(3), 0, 0, 0]]])
    enc = torch.tensor([[[1.0, 0, 0, 0], [0, 1, 0, 0], [5, 5, 5, 5]]])
    W_v = torch.tensor([[1.0], [2], [3], [4]])
    out, w = ref.cross_attention(dec, enc, torch.eye(4), torch.eye(4), W_v,
                                 enc_valid_lens=torch.tensor([2]))
    np.testing.assert_allclose(w.numpy(), [[[0.5, 0.5, 0.0], [0.75, 0.25, 0.0]]], atol=1e-6)
    np.testing.assert_allclose(out.numpy(), [[[1.5], [1.25]]], atol=1e-5)


def test_exercise_is_sound(exercise_sound):
    """Through the sandboxed grader: reference full, starter less, every known mistake named."""
    exercise_sound(EX)
