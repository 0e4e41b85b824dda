"""Causal mask built with plain Python loops; -1e9 as the 'minus infinity'."""

import math

import torch


def causal_mask(n):
    """Boolean (n, n) mask, True where query i may attend to key j (j <= i)."""
    if not n >= 1:
        raise ValueError("causal_mask needs n >= 1")
    rows = []
    for i in range(n):
        rows.append([j <= i for j in range(n)])
    return torch.tensor(rows, dtype=torch.bool)


def causal_attention(Q, K, V):
    """Return (output (..., n, d_v), weights (..., n, n)) of causally masked self-attention."""
    nq, nk, nv = Q.size(-2), K.size(-2), V.size(-2)
    if not (nq == nk == nv):
        raise ValueError(f"lengths differ: Q {nq}, K {nk}, V {nv}")
    d = Q.size(-1)
    if K.size(-1) != d:
        raise ValueError(f"Q has d={d} but K has d={K.size(-1)}")
    scores = torch.matmul(Q, K.transpose(-1, -2)) * (1.0 / math.sqrt(d))
    allowed = causal_mask(nq)
    scores = torch.where(allowed, scores, torch.full_like(scores, -1e9))
    weights = torch.softmax(scores, dim=-1)
    output = torch.matmul(weights, V)
    return output, weights
