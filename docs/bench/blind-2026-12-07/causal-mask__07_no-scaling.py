"""Causal attention."""

import torch


def causal_mask(n):
    """Boolean (n, n) mask, True where query i may attend to key j (j <= i)."""
    if n < 1:
        raise ValueError("n must be >= 1")
    idx = torch.arange(n)
    return idx[None, :] <= idx[:, None]


def causal_attention(Q, K, V):
    """Return (output (..., n, d_v), weights (..., n, n)) of causally masked self-attention."""
    n = Q.shape[-2]
    if K.shape[-2] != n or V.shape[-2] != n:
        raise ValueError("Q, K, V must have the same length")
    if K.shape[-1] != Q.shape[-1]:
        raise ValueError("Q and K must have the same d")
    scores = Q @ K.transpose(-2, -1)  # (..., n, n)
    scores = scores.masked_fill(~causal_mask(n), float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ V, weights
