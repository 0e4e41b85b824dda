"""Exercise masked-softmax: the reference agrees with a plain loop; the exercise grades soundly."""

import math

import numpy as np
import pytest
import torch
from soundness import load_reference

EX = "masked-softmax"

ref = load_reference(EX)


def _loop_masked_softmax(X: np.ndarray, lens: np.ndarray | None) -> np.ndarray:
    """One query at a time: softmax over its first L keys, zeros after (D2L semantics)."""
    B, n, m = X.shape
    out = np.zeros_like(X)
    for b in range(B):
        for i in range(n):
            L = m if lens is None else int(lens[b] if lens.ndim == 1 else lens[b, i])
            row = X[b, i, :L] - X[b, i, :L].max()
            out[b, i, :L] = np.exp(row) / np.exp(row).sum()
    return out


@pytest.mark.parametrize("lens_shape", [None, "1d", "2d"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_reference_matches_loop(lens_shape, dtype):
    g = torch.Generator().manual_seed(7)
    X = (50 * torch.randn(4, 3, 6, generator=g)).to(dtype)
    lens = {None: None, "1d": torch.tensor([1, 6, 3, 4]),
            "2d": torch.randint(1, 7, (4, 3), generator=g)}[lens_shape]
    got = ref.masked_softmax(X, lens)
    want = _loop_masked_softmax(X.double().numpy(), None if lens is None else lens.numpy())
    assert got.dtype == dtype and got.shape == X.shape
    np.testing.assert_allclose(got.double().numpy(), want, rtol=1e-5, atol=1e-7)


def test_reference_gives_the_statement_example():
    X = torch.zeros(2, 2, 4)
    third = 1 / 3
    np.testing.assert_allclose(ref.masked_softmax(X, torch.tensor([2, 3])).numpy(),
                               [[[0.5, 0.5, 0, 0]] * 2, [[third, third, third, 0]] * 2], atol=1e-7)
    np.testing.assert_allclose(ref.masked_softmax(X, torch.tensor([[1, 3], [2, 4]])).numpy(),
                               [[[1, 0, 0, 0], [third, third, third, 0]],
                                [[0.5, 0.5, 0, 0], [0.25] * 4]], atol=1e-7)
    assert math.isclose(float(ref.masked_softmax(X, None).sum()), 4.0)


def test_exercise_is_sound(exercise_sound):
    """Through the sandboxed grader: reference full, starter less, every known mistake named."""
    exercise_sound(EX)
