"""Exercise 1: the reference reproduces the lesson's numbers; the exercise is sound."""

import math

import torch

from grader.exercises import get
from grader.sandbox.runner import load_module

# Worked answers from SOURCES.md (exercise 1).
SCORES = [[1, 0, 1], [0, 1, 1], [1, 1, 2]]
WEIGHTS = [[0.4223, 0.1554, 0.4223], [0.1554, 0.4223, 0.4223], [0.2119, 0.2119, 0.5761]]
CONTEXT = [5, 6, 7, 8]


def test_reference_matches_the_lesson_and_torch():
    ns = load_module(get("manual-attention").reference_source())
    assert torch.allclose(torch.as_tensor(ns["scores"], dtype=torch.float32), torch.tensor(SCORES, dtype=torch.float32))
    assert torch.allclose(torch.as_tensor(ns["weights"]), torch.tensor(WEIGHTS), atol=1e-4)
    assert torch.allclose(torch.as_tensor(ns["context"]), torch.tensor(CONTEXT, dtype=torch.float32), atol=1e-4)
    g = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(2, 3, 4, 8, generator=g, dtype=torch.float64) for _ in range(3))
    mask = torch.tril(torch.ones(4, 4, dtype=torch.bool))
    out, w = ns["attention"](q, k, v, mask=mask)
    want = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    assert torch.allclose(out, want, atol=1e-10)
    assert torch.allclose(w.sum(-1), torch.ones(2, 3, 4, dtype=torch.float64))
    assert math.isclose(float(w[0, 0, 0, 1]), 0.0)


def test_exercise_is_sound(exercise_sound):
    exercise_sound("manual-attention")
