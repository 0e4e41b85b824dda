import math

import torch

Q = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
K = Q.clone()
V = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]])


def my_softmax(x):
    # softmax = exp(x) / sum(exp(x)), row by row
    e = torch.exp(x)
    return e / e.sum(dim=-1, keepdim=True)


def attention(Q, K, V, mask=None):
    d_k = Q.shape[-1]
    scores = Q @ K.transpose(-2, -1) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = my_softmax(scores)
    return weights @ V, weights


scores = Q @ K.T / math.sqrt(4)
weights = my_softmax(scores)
context = (weights @ V)[0]
