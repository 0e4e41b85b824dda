"""Starter for the causal-mask exercise: fill in the TODOs (see the statement)."""

import math

import torch


def causal_mask(n):
    """Boolean (n, n) mask, True where query i may attend to key j (j <= i)."""
    if n < 1:
        raise ValueError("causal_mask needs n >= 1")
    i = torch.arange(n).unsqueeze(1)  # query index, column vector
    j = torch.arange(n).unsqueeze(0)  # key index, row vector
    return j <= i


def causal_attention(Q, K, V):
    """Return (output (..., n, d_v), weights (..., n, n)) of causally masked self-attention."""
    if not (Q.shape[-2] == K.shape[-2] == V.shape[-2]):
        raise ValueError(f"lengths differ: Q {Q.shape[-2]}, K {K.shape[-2]}, V {V.shape[-2]}")
    if Q.shape[-1] != K.shape[-1]:
        raise ValueError(f"Q has d={Q.shape[-1]} but K has d={K.shape[-1]}")
    n, d = Q.shape[-2], Q.shape[-1]
    scores = torch.einsum("...id,...jd->...ij", Q, K) / math.sqrt(d)
    allowed = causal_mask(n)
    very_negative = torch.finfo(scores.dtype).min
    scores = torch.where(allowed, scores, torch.full_like(scores, very_negative))
    weights = torch.softmax(scores, dim=-1)
    output = torch.einsum("...ij,...jv->...iv", weights, V)
    return output, weights
