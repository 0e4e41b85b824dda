"""Issue 27: with a key-padding mask, scaled dot-product attention adds the mask to the scores
inside the matmul (torch.baddbmm, as torch's own MHA does) instead of filling the (n, m) scores
and filling their gradient again. Same outputs, weights and gradients as the fill, in float32
and float64. A mask that hides every key of some row keeps the fill (uniform weights that pass
no gradient to q and k)."""

from __future__ import annotations

import pytest
import torch

from transformer_lab import attention
from transformer_lab.attention import scaled_dot_product_attention


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_the_bias_path_matches_the_fill_path(dtype, monkeypatch):
    g = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(3, 2, 5, 8, generator=g, dtype=dtype) for _ in range(3))
    keep = torch.tensor([[True] * 5, [True, True, True, False, False], [True] + [False] * 4])
    mask = keep[:, None, None, :]  # (B, 1, 1, m): key padding
    runs = []
    for bias_path in (True, False):
        if not bias_path:
            monkeypatch.setattr(attention, "_padding_bias", lambda *a: None)
        qq, kk, vv = (t.clone().requires_grad_(True) for t in (q, k, v))
        out, w = scaled_dot_product_attention(qq, kk, vv, mask=mask)
        (out.sum() + (w * torch.arange(5, dtype=dtype)).sum()).backward()
        runs.append((out, w, qq.grad, kk.grad, vv.grad))
    tol = 1e-5 if dtype == torch.float32 else 1e-10
    for a, b in zip(*runs, strict=True):
        assert torch.isfinite(a).all() and torch.allclose(a, b, atol=tol, rtol=tol)
    weights = runs[0][1]
    assert torch.all(weights[1, :, :, 3:] == 0) and torch.all(weights[2, :, :, 0] == 1)


def test_a_padding_mask_that_hides_some_keys_of_every_row_takes_the_bias_path():
    q, k = torch.randn(3, 2, 5, 8), torch.randn(3, 2, 5, 8)
    keep = torch.tensor([[True] * 5, [True, True, True, False, False], [True] + [False] * 4])
    assert attention._padding_bias(q, k, keep[:, None, None, :]) is not None
    keep[2, 0] = False  # now a row sees no key: the fill's uniform weights, no gradient
    assert attention._padding_bias(q, k, keep[:, None, None, :]) is None


def test_other_masks_keep_the_fill_path():
    q = torch.randn(2, 4, 8)
    k = torch.randn(2, 6, 8)
    causal = torch.ones(4, 6, dtype=torch.bool).tril()  # (n, m): not key padding
    assert attention._padding_bias(q, k, causal) is None
    assert attention._padding_bias(q, k, torch.ones(2, 1, 6, dtype=torch.bool)) is not None
    assert attention._padding_bias(q, k, None) is None
