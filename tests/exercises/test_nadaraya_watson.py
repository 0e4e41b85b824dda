"""Exercise nadaraya-watson: the reference agrees with a plain loop; the exercise grades soundly."""

import math

import numpy as np
import pytest
import torch
from soundness import load_reference

EX = "nadaraya-watson"

ref = load_reference(EX)


def _loop_nw(xq, xk, yv, w):
    """Kernel weights K(d) = exp(-1/2 (d w)^2), normalised per query, written out one by one."""
    pred, attn = [], []
    for x in xq:
        k = [math.exp(-0.5 * ((x - xi) * w) ** 2) for xi in xk]
        total = sum(k)
        attn.append([v / total for v in k])
        pred.append(sum(a * y for a, y in zip(attn[-1], yv, strict=True)))
    return np.array(pred), np.array(attn)


@pytest.mark.parametrize("w", [1.0, 0.7, 2.5])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_reference_matches_loop(w, dtype):
    g = torch.Generator().manual_seed(3)
    xk = torch.sort(5 * torch.rand(9, generator=g, dtype=torch.float64)).values
    yv = 2 * torch.sin(xk) + xk ** 0.8
    xq = 6 * torch.rand(4, generator=g, dtype=torch.float64) - 0.5
    pred, attn = ref.nw_predict(xq.to(dtype), xk.to(dtype), yv.to(dtype), w)
    want_pred, want_attn = _loop_nw(xq.tolist(), xk.tolist(), yv.tolist(), w)
    assert pred.dtype == dtype and attn.shape == (4, 9)
    tol = 1e-5 if dtype == torch.float32 else 1e-10
    np.testing.assert_allclose(attn.double().numpy(), want_attn, rtol=tol, atol=tol)
    np.testing.assert_allclose(pred.double().numpy(), want_pred, rtol=tol, atol=tol)


def test_statement_example_and_average_pooling_limit():
    pred, attn = ref.nw_predict(torch.tensor([1.0]), torch.tensor([0.0, 1.0, 2.0]),
                                torch.tensor([1.0, 2.0, 3.0]))
    np.testing.assert_allclose(attn.numpy(), [[0.2741, 0.4519, 0.2741]], atol=1e-4)
    assert pred.item() == pytest.approx(2.0, abs=1e-6)
    # w -> 0 flattens the kernel: Nadaraya-Watson becomes average pooling, f(x) = mean(y)
    y = torch.tensor([1.0, 5.0, -3.0, 4.0], dtype=torch.float64)
    pred0, _ = ref.nw_predict(torch.tensor([0.3, 9.0], dtype=torch.float64),
                              torch.tensor([0.0, 1.0, 2.0, 3.0], dtype=torch.float64), y, 1e-9)
    np.testing.assert_allclose(pred0.numpy(), [y.mean().item()] * 2, atol=1e-12)


def test_far_queries_stay_finite():
    """exp(-1/2 (d w)^2) underflows to 0 for every key here; the reference must not give NaN."""
    xk = torch.tensor([0.0, 10.0, 20.0], dtype=torch.float64)
    assert float(torch.exp(-0.5 * ((4.0 - xk) * 10.0) ** 2).sum()) == 0.0
    pred, attn = ref.nw_predict(torch.tensor([4.0], dtype=torch.float64), xk,
                                torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64), 10.0)
    np.testing.assert_allclose(attn.numpy(), [[1.0, 0.0, 0.0]], atol=1e-12)
    assert pred.item() == pytest.approx(1.0)


def test_exercise_is_sound(exercise_sound):
    """Through the sandboxed grader: reference full, starter less, every known mistake named."""
    exercise_sound(EX)
