import math

import torch


def causal_mask(n):
    if n < 1:
        raise ValueError("n must be at least 1")
    return torch.tril(torch.ones(n, n, dtype=torch.bool))


def causal_attention(Q, K, V):
    *lead, n, d = Q.shape
    if K.shape[-2] != n or V.shape[-2] != n:
        raise ValueError("same n needed")
    if K.shape[-1] != d:
        raise ValueError("same d needed")
    scale = 1.0 / math.sqrt(K.shape[-2])
    scores = (Q @ K.transpose(-2, -1)) * scale
    scores = scores.masked_fill(~causal_mask(n), float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ V, weights
