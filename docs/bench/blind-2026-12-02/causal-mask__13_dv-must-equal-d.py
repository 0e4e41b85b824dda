import math

import torch


def causal_mask(n):
    if n < 1:
        raise ValueError("n must be at least 1")
    return torch.tril(torch.ones(n, n, dtype=torch.bool))


def causal_attention(Q, K, V):
    if not (Q.shape == K.shape == V.shape):
        raise ValueError(f"Q, K, V must have the same shape, got {Q.shape}, {K.shape}, {V.shape}")
    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
    scores = scores.masked_fill(~causal_mask(Q.shape[-2]), float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ V, weights
