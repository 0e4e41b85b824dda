import math

import torch

Q = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
K = Q.clone()
V = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]])

# Part A: worked out on paper.
# QK^T = [[2,0,2],[0,2,2],[2,2,4]], divided by sqrt(4) = 2
scores = [[1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [1.0, 1.0, 2.0]]
# row softmax: e/(2e+1), 1/(2e+1), ... ; last row e/(2e+e^2) etc.
weights = [[0.4223, 0.1554, 0.4223],
           [0.1554, 0.4223, 0.4223],
           [0.2119, 0.2119, 0.5761]]
# 0.4223*[1,2,3,4] + 0.1554*[5,6,7,8] + 0.4223*[9,10,11,12]
context = [5.0, 6.0, 7.0, 8.0]


def _stable_softmax(x, keep=None):
    # subtract the row max so exp never overflows
    x = x - x.amax(dim=-1, keepdim=True)
    e = torch.exp(x)
    if keep is not None:
        e = torch.where(keep, e, torch.zeros_like(e))
    return e / e.sum(dim=-1, keepdim=True)


# Part B
def attention(Q, K, V, mask=None):
    """Return (context, weights) for Q (..., n, d_k), K (..., m, d_k), V (..., m, d_v)."""
    d_k = Q.shape[-1]
    s = torch.einsum("...nd,...md->...nm", Q, K) * (1.0 / math.sqrt(d_k))
    if mask is not None:
        # push hidden keys far down before taking the max, then zero them exactly
        s = s.masked_fill(~mask, torch.finfo(s.dtype).min)
    w = _stable_softmax(s, mask)
    ctx = torch.einsum("...nm,...mv->...nv", w, V)
    return ctx, w
