import math

import torch

Q = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
K = Q.clone()
V = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]])


def attention(Q, K, V, mask=None):
    n, m, d = Q.shape[-2], K.shape[-2], V.shape[-1]
    scores = Q @ K.transpose(-2, -1) * (1.0 / math.sqrt(d))
    if mask is not None:
        scores = scores.masked_fill(~mask.bool(), float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ V, weights


c, weights = attention(Q, K, V)
scores = Q @ K.T / math.sqrt(4)
context = c[0].tolist()
