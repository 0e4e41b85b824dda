"""Losses and scores of the training loop: label-smoothed cross-entropy, token and sequence accuracy."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor

__all__ = [
    "align_width",
    "decoded_scores",
    "exact_match",
    "is_finite",
    "label_smoothed_cross_entropy",
    "token_accuracy",
]


def label_smoothed_cross_entropy(
    logits: Tensor, target: Tensor, smoothing: float = 0.0, ignore_index: int = 0
) -> Tensor:
    """Mean cross-entropy over the non-ignored positions, with label smoothing.

    logits (..., V), target (...) long. The smoothed target puts 1 − ε on the true class and
    spreads ε evenly over all V classes (the true one included), which is how the paper's
    ε_ls = 0.1 and ``F.cross_entropy(label_smoothing=ε)`` define it:

        loss = (1 − ε) · (−log p_y) + ε · mean_c(−log p_c)
    """
    if not 0.0 <= smoothing < 1.0:
        raise ValueError(f"label smoothing must lie in [0, 1), got {smoothing}")
    if logits.shape[:-1] != target.shape:
        raise ValueError(
            f"logits {tuple(logits.shape)} and target {tuple(target.shape)} disagree: logits "
            f"need one extra last dimension (the vocabulary) and otherwise the target's shape"
        )
    logp = F.log_softmax(logits.float(), dim=-1)  # (..., V)
    keep = target != ignore_index  # (...)
    n = keep.sum()
    if int(n) == 0:
        raise ValueError("every target position is padding: there is nothing to learn from")
    # gather needs a valid class id, so padded positions point at class 0 and are masked out.
    nll = -logp.gather(-1, target.clamp(min=0).unsqueeze(-1)).squeeze(-1)  # (...)
    per_pos = nll if smoothing == 0.0 else (1 - smoothing) * nll - smoothing * logp.mean(-1)
    return (per_pos * keep).sum() / n


def align_width(pred: Tensor, width: int, pad_id: int = 0) -> Tensor:
    """Cut or right-pad (B, L) predictions to (B, width) so they compare with a target."""
    if pred.shape[1] >= width:
        return pred[:, :width]
    return F.pad(pred, (0, width - pred.shape[1]), value=pad_id)


def token_accuracy(pred: Tensor, target: Tensor, pad_id: int = 0) -> float:
    """Share of real (non-pad) target positions where pred (B, T) equals target (B, T)."""
    keep = target != pad_id  # (B, T)
    total = int(keep.sum())
    if total == 0:
        raise ValueError("the target holds only padding: accuracy is undefined")
    return float(((pred == target) & keep).sum()) / total


def exact_match(pred: Tensor, target: Tensor, pad_id: int = 0) -> float:
    """Share of rows whose every real target position is predicted right (<eos> included).

    Positions past a row's target length are ignored: what a model emits after its <eos> is
    never read, and a greedy decoder pads there anyway.
    """
    ok = (pred == target) | (target == pad_id)  # (B, T)
    return float(ok.all(dim=1).float().mean())


def decoded_scores(tokens: Tensor, target: Tensor, pad_id: int = 0) -> dict[str, float]:
    """token_acc and exact_acc of decoded tokens (B, L) against tgt_out (B, T)."""
    pred = align_width(tokens.to(target.device), target.shape[1], pad_id)  # (B, T)
    return {
        "token_acc": token_accuracy(pred, target, pad_id),
        "exact_acc": exact_match(pred, target, pad_id),
    }


def is_finite(x: torch.Tensor) -> bool:
    """True unless the loss blew up (nan or inf), which the loop reports as an error."""
    return bool(torch.isfinite(x).all())
