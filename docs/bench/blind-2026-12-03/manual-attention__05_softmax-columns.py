import math

import torch

Q = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
K = Q.clone()
V = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]])


def attention(Q, K, V, mask=None):
    d_k = Q.shape[-1]
    scores = Q @ K.transpose(-2, -1) / math.sqrt(d_k)   # (..., n, m)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    # normalise over the keys
    weights = torch.softmax(scores, dim=-2)
    context = weights @ V
    return context, weights


scores = Q @ K.T / 2.0
_c, weights = attention(Q, K, V)
context = _c[0]
