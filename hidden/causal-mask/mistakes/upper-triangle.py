"""Known mistake for causal-mask: upper triangle allowed: each token sees the future, not the past."""

import math

import torch


def causal_mask(n):
    """Boolean (n, n) mask, True where query i may attend to key j (j <= i)."""
    if n < 1:
        raise ValueError(f"a causal mask needs at least one position, got n={n}")
    return torch.ones(n, n, dtype=torch.bool).triu()  # mistake: attends to the future


def causal_attention(Q, K, V):
    """Return (output (..., n, d_v), weights (..., n, n)) of causally masked self-attention."""
    n = Q.shape[-2]
    if K.shape[-2] != n or V.shape[-2] != n:
        raise ValueError("Q, K and V must have the same sequence length (axis -2)")
    if K.shape[-1] != Q.shape[-1]:
        raise ValueError("Q and K must have the same last dimension d")
    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])  # (..., n, n)
    allowed = causal_mask(n)  # (n, n), broadcasts over the leading axes
    weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
    return weights @ V, weights  # (..., n, d_v), (..., n, n)
