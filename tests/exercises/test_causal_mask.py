"""Exercise causal-mask: the reference agrees with torch's causal SDPA; the exercise grades soundly."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from soundness import load_reference

EX = "causal-mask"

ref = load_reference(EX)


@pytest.mark.parametrize("n", [1, 2, 7])
def test_mask_matches_torch_square_subsequent_mask(n):
    # torch's decoder mask is a float mask: 0 where allowed, -inf on the future
    torch_mask = torch.nn.Transformer.generate_square_subsequent_mask(n)
    mask = ref.causal_mask(n)
    assert mask.dtype == torch.bool and mask.shape == (n, n)
    assert torch.equal(mask, torch_mask == 0)


@pytest.mark.parametrize("shape", [(5, 3, 4), (2, 6, 8), (2, 3, 5, 4)])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_attention_matches_torch_causal_sdpa(shape, dtype):
    g = torch.Generator().manual_seed(11)
    Q, K = (torch.randn(*shape, generator=g, dtype=dtype) for _ in range(2))
    V = torch.randn(*shape[:-1], 3, generator=g, dtype=dtype)
    out, weights = ref.causal_attention(Q, K, V)
    want = F.scaled_dot_product_attention(Q, K, V, is_causal=True)
    tol = 1e-5 if dtype == torch.float32 else 1e-10
    np.testing.assert_allclose(out.numpy(), want.numpy(), rtol=tol, atol=tol)
    n = shape[-2]
    assert torch.all(weights.masked_select(~torch.ones(n, n, dtype=torch.bool).tril()) == 0)
    np.testing.assert_allclose(weights.sum(-1).double().numpy(), 1.0, atol=1e-6)


def test_statement_example_running_means():
    Q = torch.zeros(1, 3, 2)
    out, w = ref.causal_attention(Q, Q, torch.tensor([[[3.0], [6.0], [9.0]]]))
    np.testing.assert_allclose(out.numpy(), [[[3.0], [4.5], [6.0]]], atol=1e-6)
    np.testing.assert_allclose(w.numpy(), [[[1, 0, 0], [0.5, 0.5, 0], [1 / 3, 1 / 3, 1 / 3]]],
                               atol=1e-7)


def test_exercise_is_sound(exercise_sound):
    """Through the sandboxed grader: reference full, starter less, every known mistake named."""
    exercise_sound(EX)
