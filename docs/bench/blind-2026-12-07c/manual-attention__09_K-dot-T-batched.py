import math

import torch

Q = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
K = Q.clone()
V = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]])


def attention(Q, K, V, mask=None):
    """Return (context, weights) for Q (..., n, d_k), K (..., m, d_k), V (..., m, d_v)."""
    d_k = Q.shape[-1]
    scores = Q @ K.T / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    context = weights @ V
    return context, weights


# Part A, from the function above
_context, _weights = attention(Q, K, V)
scores = Q @ K.T / math.sqrt(4)
weights = _weights
context = _context[0]
