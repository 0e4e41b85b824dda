"""Causal attention: zero the future weights, then renormalise each row."""

import math

import torch


def causal_mask(n):
    """Boolean (n, n) mask, True where query i may attend to key j (j <= i)."""
    if n < 1:
        raise ValueError("n must be >= 1")
    return torch.tril(torch.ones(n, n)).bool()


def causal_attention(Q, K, V):
    """Return (output (..., n, d_v), weights (..., n, n)) of causally masked self-attention."""
    n = Q.shape[-2]
    if K.shape[-2] != n or V.shape[-2] != n:
        raise ValueError("Q, K and V need the same length n")
    if K.shape[-1] != Q.shape[-1]:
        raise ValueError("Q and K need the same d")
    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])  # (..., n, n)
    weights = torch.softmax(scores, dim=-1)
    weights = weights * causal_mask(n)                 # drop the future
    weights = weights / weights.sum(dim=-1, keepdim=True)   # rows sum to 1 again
    return weights @ V, weights
