"""Starter for the causal-mask exercise: fill in the TODOs (see the statement)."""

import math

import torch


def causal_mask(n):
    """Boolean (n, n) mask, True where query i may attend to key j (j <= i)."""
    if n < 1:
        raise ValueError("n must be >= 1")
    return torch.tril(torch.ones(n, n), diagonal=-1).bool()


def causal_attention(Q, K, V):
    """Return (output (..., n, d_v), weights (..., n, n)) of causally masked self-attention."""
    if Q.shape[-2] != K.shape[-2] or Q.shape[-2] != V.shape[-2]:
        raise ValueError("Q, K, V must have the same length")
    if Q.shape[-1] != K.shape[-1]:
        raise ValueError("Q and K must have the same d")
    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])  # (..., n, n)
    mask = causal_mask(Q.shape[-2])
    scores = scores.masked_fill(~mask, -1e9)
    weights = torch.softmax(scores, dim=-1)
    return weights @ V, weights
