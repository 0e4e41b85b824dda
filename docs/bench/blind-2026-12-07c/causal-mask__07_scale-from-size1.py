import math

import torch


def causal_mask(n):
    """Boolean (n, n) mask, True where query i may attend to key j (j <= i)."""
    if n < 1:
        raise ValueError("n must be at least 1")
    return torch.tril(torch.ones((n, n), dtype=torch.bool))


def causal_attention(Q, K, V):
    """Return (output (..., n, d_v), weights (..., n, n)) of causally masked self-attention."""
    if Q.shape[-2] != K.shape[-2] or K.shape[-2] != V.shape[-2]:
        raise ValueError("Q, K, V must have the same sequence length")
    if Q.shape[-1] != K.shape[-1]:
        raise ValueError("Q and K must have the same feature size")
    n = Q.shape[-2]
    d = Q.size(1)
    scores = torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(d)
    scores = scores.masked_fill(~causal_mask(n), float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return torch.matmul(weights, V), weights
