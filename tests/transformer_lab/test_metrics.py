"""metrics.py against independent references: torch's cross-entropy and hand-counted scores."""

from __future__ import annotations

import math

import pytest
import torch
import torch.nn.functional as F

from transformer_lab.metrics import (
    align_width,
    decoded_scores,
    exact_match,
    is_finite,
    label_smoothed_cross_entropy,
    token_accuracy,
)


@pytest.mark.parametrize("smoothing", [0.0, 0.1, 0.4])
def test_loss_equals_torch_cross_entropy_with_padding_ignored(smoothing):
    g = torch.Generator().manual_seed(0)
    logits = torch.randn(4, 6, 9, generator=g)
    target = torch.randint(1, 9, (4, 6), generator=g)
    target[1, 3:] = 0  # padding
    target[3, 1:] = 0
    ours = label_smoothed_cross_entropy(logits, target, smoothing)
    ref = F.cross_entropy(logits.reshape(-1, 9), target.reshape(-1), ignore_index=0,
                          label_smoothing=smoothing)
    torch.testing.assert_close(ours, ref)


def test_loss_of_one_position_by_hand():
    # V = 3, logits (0, ln 2, 0): p = (1/4, 1/2, 1/4); true class 1, ε = 0.3.
    logits = torch.tensor([[[0.0, math.log(2.0), 0.0]]])
    target = torch.tensor([[1]])
    want = 0.7 * -math.log(0.5) + 0.3 * (-(math.log(0.25) * 2 + math.log(0.5)) / 3)
    assert label_smoothed_cross_entropy(logits, target, 0.3).item() == pytest.approx(want)


def test_loss_refuses_bad_input_with_reasons():
    with pytest.raises(ValueError, match=r"\[0, 1\)"):
        label_smoothed_cross_entropy(torch.randn(1, 2, 3), torch.ones(1, 2, dtype=torch.long), 1.0)
    with pytest.raises(ValueError, match="disagree"):
        label_smoothed_cross_entropy(torch.randn(1, 2, 3), torch.ones(1, 3, dtype=torch.long))
    with pytest.raises(ValueError, match="padding"):
        label_smoothed_cross_entropy(torch.randn(1, 2, 3), torch.zeros(1, 2, dtype=torch.long))


def counted(pred: list[list[int]], target: list[list[int]]) -> tuple[float, float]:
    """Token accuracy and exact match by plain loops (pad = 0)."""
    right = total = exact = 0
    for p_row, t_row in zip(pred, target, strict=True):
        row_ok = True
        for p, t in zip(p_row, t_row, strict=True):
            if t == 0:
                continue
            total += 1
            right += p == t
            row_ok &= p == t
        exact += row_ok
    return right / total, exact / len(target)


def test_scores_equal_plain_loops_on_random_batches():
    g = torch.Generator().manual_seed(3)
    for _ in range(20):
        target = torch.randint(1, 4, (6, 5), generator=g)
        for row, length in enumerate(torch.randint(1, 6, (6,), generator=g).tolist()):
            target[row, length:] = 0
        pred = torch.where(torch.rand(6, 5, generator=g) < 0.8, target,
                           torch.randint(0, 4, (6, 5), generator=g))
        tok, ex = counted(pred.tolist(), target.tolist())
        assert token_accuracy(pred, target) == pytest.approx(tok)
        assert exact_match(pred, target) == pytest.approx(ex)


def test_what_comes_after_eos_is_never_read():
    target = torch.tensor([[5, 2, 0, 0]])  # y, <eos>, pads
    pred = torch.tensor([[5, 2, 7, 7]])  # garbage after <eos>
    assert exact_match(pred, target) == 1.0 and token_accuracy(pred, target) == 1.0
    with pytest.raises(ValueError, match="only padding"):
        token_accuracy(pred, torch.zeros_like(target))


def test_align_width_and_decoded_scores_on_short_and_long_predictions():
    assert align_width(torch.tensor([[4, 2]]), 4).tolist() == [[4, 2, 0, 0]]
    assert align_width(torch.tensor([[4, 5, 6, 2, 9]]), 3).tolist() == [[4, 5, 6]]
    target = torch.tensor([[4, 5, 2], [6, 2, 0]])
    short = torch.tensor([[4, 5], [6, 2]])  # row 0 stopped before its <eos>
    assert decoded_scores(short, target) == {"token_acc": 0.8, "exact_acc": 0.5}
    long = torch.tensor([[4, 5, 2, 3, 3], [6, 2, 0, 0, 0]])
    assert decoded_scores(long, target) == {"token_acc": 1.0, "exact_acc": 1.0}


def test_is_finite():
    assert is_finite(torch.tensor(1.5)) and is_finite(torch.tensor([0.0, -2.0]))
    assert not is_finite(torch.tensor(float("nan")))
    assert not is_finite(torch.tensor([1.0, float("inf")]))


@pytest.mark.parametrize("smoothing", [0.0, 0.2])
def test_loss_gradient_equals_torch_and_other_ignore_ids_work(smoothing):
    g = torch.Generator().manual_seed(5)
    logits = torch.randn(3, 5, 7, generator=g, dtype=torch.float64)
    target = torch.randint(0, 7, (3, 5), generator=g)
    target[0, 2:] = -100  # torch's default ignore_index: not a class id, so gather must not see it
    ours_in, ref_in = logits.clone().requires_grad_(True), logits.clone().requires_grad_(True)
    ours = label_smoothed_cross_entropy(ours_in, target, smoothing, ignore_index=-100)
    ref = F.cross_entropy(ref_in.reshape(-1, 7), target.reshape(-1), ignore_index=-100,
                          label_smoothing=smoothing)
    torch.testing.assert_close(ours, ref.float())
    ours.backward()
    ref.backward()
    torch.testing.assert_close(ours_in.grad, ref_in.grad, atol=1e-6, rtol=1e-5)
    assert torch.all(ours_in.grad[0, 2:] == 0), "ignored positions get no gradient"
