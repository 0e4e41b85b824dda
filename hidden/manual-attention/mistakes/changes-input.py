"""Known mistake: `attention` divides the caller's Q in place (Q /= sqrt(d_k)), so Part A's
scores, worked out from the module-level Q after the call, come out as Q·Kᵀ/4 (weights and
context are right). Its name is the inputs probe's: the whole report then names one cause.
Safe as a mistake file because trusted runs give each step its own inputs (grader/runner.py)."""

import math

import torch

Q = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
K = Q.clone()
V = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]])


def attention(Q, K, V, mask=None):
    Q /= math.sqrt(Q.shape[-1])  # mistake: changes the caller's tensor
    scores = Q @ K.transpose(-2, -1)  # (..., n, m)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ V, weights


context_all, weights = attention(Q, K, V)
scores = Q @ K.T / 2
context = context_all[0]
