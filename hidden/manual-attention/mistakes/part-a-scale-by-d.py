"""Known mistake: Part A's scores divided by d_k = 4 instead of sqrt(d_k) = 2 (weights and
context worked out from them); the function of Part B is right."""

import math

import torch

Q = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
K = Q.clone()
V = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]])


def attention(Q, K, V, mask=None):
    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])  # (..., n, m)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ V, weights


scores = Q @ K.T / 4  # mistake: d_k, not sqrt(d_k)
weights = torch.softmax(scores, dim=-1)
context = (weights @ V)[0]
