"""Starter for the causal-mask exercise: fill in the TODOs (see the statement)."""

import math

import torch


def causal_mask(n):
    """Boolean (n, n) mask, True where query i may attend to key j (j <= i)."""
    # TODO: raise ValueError when n < 1, then build the mask (hint: torch.tril).
    raise NotImplementedError("causal_mask is not written yet")


def causal_attention(Q, K, V):
    """Return (output (..., n, d_v), weights (..., n, n)) of causally masked self-attention."""
    # TODO: check that Q, K, V have the same length n and that Q, K have the same d.
    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])  # (..., n, n)
    # TODO: block the future (j > i) before the softmax.
    weights = torch.softmax(scores, dim=-1)
    return weights @ V, weights
