import math

import torch


def causal_mask(n):
    """True on and below the diagonal."""
    return torch.ones(n, n, dtype=torch.bool).tril()


def causal_attention(Q, K, V):
    n = Q.shape[-2]
    if K.shape[-2] != n or V.shape[-2] != n:
        raise ValueError("Q, K, V must have the same length")
    if Q.shape[-1] != K.shape[-1]:
        raise ValueError("Q and K must have the same last dimension")
    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
    scores = scores.masked_fill(~causal_mask(n), float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ V, weights
