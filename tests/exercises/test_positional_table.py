"""Exercise positional-table: the reference gives the lesson's table; the exercise grades soundly."""

import math

import numpy as np
import pytest
import torch
from soundness import load_reference

EX = "positional-table"

# SOURCES.md, worked table (d_model = 4; frequencies 1 and 0.01)
LESSON_TABLE = [
    [0.0000, 1.0000, 0.0000, 1.0000],
    [0.8415, 0.5403, 0.0100, 0.9999],
    [0.9093, -0.4161, 0.0200, 0.9998],
    [0.1411, -0.9900, 0.0300, 0.9996],
    [-0.7568, -0.6536, 0.0400, 0.9992],
]


ref = load_reference(EX)


def test_reference_gives_the_lesson_table():
    P = ref.positional_encoding(5, 4)
    assert P.dtype == torch.float32 and P.shape == (5, 4)
    np.testing.assert_allclose(P.numpy(), LESSON_TABLE, atol=5e-5)


@pytest.mark.parametrize("max_len, d_model", [(9, 2), (50, 16), (100, 64)])
def test_reference_matches_the_formula_entry_by_entry(max_len, d_model):
    P = ref.positional_encoding(max_len, d_model)
    assert P.dtype == torch.float32 and P.shape == (max_len, d_model)
    P = P.double().numpy()
    for pos in (0, 1, max_len // 2, max_len - 1):
        for i in range(d_model // 2):
            angle = pos / 10000 ** (2 * i / d_model)
            assert P[pos, 2 * i] == pytest.approx(math.sin(angle), abs=1e-7)
            assert P[pos, 2 * i + 1] == pytest.approx(math.cos(angle), abs=1e-7)


def test_add_positions_scales_then_adds():
    X = torch.randn(3, 5, 8, generator=torch.Generator().manual_seed(2), dtype=torch.float64)
    P = ref.positional_encoding(5, 8).double()
    out = ref.add_positions(X)
    assert out.dtype == torch.float64
    np.testing.assert_allclose(out.numpy(), (X * math.sqrt(8) + P).numpy(), atol=1e-12)


@pytest.mark.parametrize("max_len, d_model", [(5, 7), (0, 8), (4, 0)])
def test_bad_sizes_raise(max_len, d_model):
    with pytest.raises(ValueError):
        ref.positional_encoding(max_len, d_model)


def test_exercise_is_sound(exercise_sound):
    """Through the sandboxed grader: reference full, starter less, every known mistake named."""
    exercise_sound(EX)
