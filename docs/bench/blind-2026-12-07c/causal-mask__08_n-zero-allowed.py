"""Starter for the causal-mask exercise: fill in the TODOs (see the statement)."""

import math

import torch


def causal_mask(n):
    """Boolean (n, n) mask, True where query i may attend to key j (j <= i)."""
    if n < 0:
        raise ValueError("n must not be negative")
    return torch.tril(torch.ones(n, n, dtype=torch.bool))


def causal_attention(Q, K, V):
    """Return (output (..., n, d_v), weights (..., n, n)) of causally masked self-attention."""
    if not (Q.shape[-2] == K.shape[-2] == V.shape[-2]):
        raise ValueError("Q, K, V must have the same length n")
    if Q.shape[-1] != K.shape[-1]:
        raise ValueError("Q and K must have the same d")
    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])  # (..., n, n)
    scores = scores.masked_fill(~causal_mask(Q.shape[-2]), float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ V, weights
