import math

import torch

Q = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
K = Q.clone()
V = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]])


# Part B
def attention(Q, K, V, mask=None):
    """Return (context, weights) for Q (..., n, d_k), K (..., m, d_k), V (..., m, d_v)."""
    d_k = Q.shape[-1]
    # scale the dot products down by the key width so softmax does not saturate
    scores = Q @ K.transpose(-2, -1) / d_k
    if mask is not None:
        scores = scores.masked_fill(mask == False, float("-inf"))  # noqa: E712
    weights = torch.softmax(scores, dim=-1)
    return weights @ V, weights


# Part A: let the function do the arithmetic
_c, _w = attention(Q, K, V)
scores = (Q @ K.transpose(-2, -1) / Q.shape[-1]).tolist()
weights = _w.tolist()
context = _c[0].tolist()
