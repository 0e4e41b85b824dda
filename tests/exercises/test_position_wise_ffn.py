"""Exercise position-wise-ffn: the reference agrees with torch.nn layers and a per-position
loop, matches the statement's worked example, and the exercise grades soundly."""

import numpy as np
import pytest
import torch
from soundness import load_reference

EX = "position-wise-ffn"

ref = load_reference(EX)


def _inputs(dtype, B=3, n=4, d_model=5, d_ff=7, seed=11):
    g = torch.Generator().manual_seed(seed)
    shapes = [(B, n, d_model), (d_model, d_ff), (d_ff,), (d_ff, d_model), (d_model,)]
    return [torch.randn(*s, generator=g, dtype=dtype) for s in shapes]


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_reference_matches_torch_nn(dtype):
    X, W1, b1, W2, b2 = _inputs(dtype)
    lin1, lin2 = torch.nn.Linear(5, 7, dtype=dtype), torch.nn.Linear(7, 5, dtype=dtype)
    with torch.no_grad():  # nn.Linear stores the transpose: y = x Wᵀ + b
        lin1.weight.copy_(W1.T)
        lin1.bias.copy_(b1)
        lin2.weight.copy_(W2.T)
        lin2.bias.copy_(b2)
        want = torch.nn.Sequential(lin1, torch.nn.ReLU(), lin2)(X)
    out = ref.position_wise_ffn(X, W1, b1, W2, b2)
    tol = 1e-5 if dtype == torch.float32 else 1e-12
    assert out.dtype == dtype and out.shape == X.shape
    np.testing.assert_allclose(out.numpy(), want.numpy(), rtol=tol, atol=tol)


def test_reference_matches_a_loop_and_leaves_its_inputs():
    X, W1, b1, W2, b2 = _inputs(torch.float64, B=2, n=3)
    before = [t.clone() for t in (X, W1, b1, W2, b2)]
    out = ref.position_wise_ffn(X, W1, b1, W2, b2)
    for b in range(2):
        for i in range(3):  # each position on its own, with the same weights
            h = np.maximum(0.0, X[b, i].numpy() @ W1.numpy() + b1.numpy())
            np.testing.assert_allclose(out[b, i].numpy(), h @ W2.numpy() + b2.numpy(), atol=1e-12)
    assert all(torch.equal(x, y) for x, y in zip(before, (X, W1, b1, W2, b2), strict=True))


def test_reference_is_position_wise():
    """Permuting the positions permutes the output rows the same way."""
    X, W1, b1, W2, b2 = _inputs(torch.float64)
    perm = torch.tensor([2, 0, 3, 1])
    out = ref.position_wise_ffn(X, W1, b1, W2, b2)
    np.testing.assert_allclose(ref.position_wise_ffn(X[:, perm], W1, b1, W2, b2).numpy(),
                               out[:, perm].numpy(), atol=1e-12)


def test_statement_example():
    X = torch.tensor([[[1.0, -1], [2, 0]]])
    W1 = torch.tensor([[1.0, 0, -1], [0, 1, 1]])
    b1 = torch.tensor([0.0, 0, 1])
    W2 = torch.tensor([[1.0, 0], [0, 1], [1, 1]])
    b2 = torch.tensor([0.0, -2])
    out = ref.position_wise_ffn(X, W1, b1, W2, b2)
    np.testing.assert_allclose(out.numpy(), [[[1.0, -2.0], [2.0, -2.0]]], atol=1e-6)
    # the statement's remark: without the ReLU, position 0 gives [0, -4]
    np.testing.assert_allclose(((X @ W1 + b1) @ W2 + b2)[0, 0].numpy(), [0.0, -4.0], atol=1e-6)


def test_exercise_is_sound(exercise_sound):
    """Through the sandboxed grader: reference full, starter less, every known mistake named."""
    exercise_sound(EX)
