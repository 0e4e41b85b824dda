"""Exercise 2: the reference reproduces the worked positional table; the exercise is sound."""

import torch

from grader.exercises import get
from grader.sandbox.runner import load_module

TABLE = [[0.0, 1.0, 0.0, 1.0], [0.8415, 0.5403, 0.0100, 0.9999], [0.9093, -0.4161, 0.0200, 0.9998],
         [0.1411, -0.9900, 0.0300, 0.9996], [-0.7568, -0.6536, 0.0400, 0.9992]]


def test_reference_table_and_equivariance():
    ns = load_module(get("permutation-invariance").reference_source())
    assert torch.allclose(ns["sinusoidal_positional_encoding"](5, 4), torch.tensor(TABLE), atol=1e-4)
    mha = torch.nn.MultiheadAttention(8, 2, batch_first=True).eval()
    x = torch.randn(3, 5, 8, generator=torch.Generator().manual_seed(1))
    assert ns["is_permutation_equivariant"](mha_self := (lambda t: mha(t, t, t)), x, [4, 0, 1, 2, 3])
    assert not ns["is_permutation_equivariant"](lambda t: mha_self(t + torch.arange(5.0).view(1, 5, 1)), x,
                                                [4, 0, 1, 2, 3])


def test_exercise_is_sound(exercise_sound):
    exercise_sound("permutation-invariance")
