"""Starter for the causal-mask exercise: fill in the TODOs (see the statement)."""

import math

import torch


def causal_mask(n):
    """Boolean (n, n) mask, True where query i may attend to key j (j <= i)."""
    if n < 1:
        raise ValueError("n must be a positive integer")
    return torch.tril(torch.ones(n, n))


def causal_attention(Q, K, V):
    """Return (output (..., n, d_v), weights (..., n, n)) of causally masked self-attention."""
    n = Q.shape[-2]
    if K.shape[-2] != n or V.shape[-2] != n:
        raise ValueError("Q, K and V must have the same length")
    if Q.shape[-1] != K.shape[-1]:
        raise ValueError("Q and K must have the same last dimension")
    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])  # (..., n, n)
    scores = scores.masked_fill(causal_mask(n) == 0, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ V, weights
