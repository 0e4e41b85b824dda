import math

import torch


def causal_mask(n):
    if not isinstance(n, int) or n < 1:
        raise ValueError("n should be a positive int")
    i = torch.arange(n).unsqueeze(1)   # column of query indices
    j = torch.arange(n).unsqueeze(0)   # row of key indices
    return j <= i


def causal_attention(Q, K, V):
    n, d = Q.shape[-2], Q.shape[-1]
    if K.shape[-2] != n or V.shape[-2] != n:
        raise ValueError(f"length mismatch: {Q.shape[-2]}, {K.shape[-2]}, {V.shape[-2]}")
    if K.shape[-1] != d:
        raise ValueError("Q and K need the same last dimension")
    scores = torch.einsum("...id,...jd->...ij", Q, K) / math.sqrt(d)
    # additive mask like the paper notes: 0 where allowed, very negative where blocked
    blocked = torch.zeros(n, n, dtype=Q.dtype)
    blocked[~causal_mask(n)] = -1e9
    scores = scores + blocked
    weights = torch.softmax(scores, dim=-1)
    output = torch.einsum("...ij,...jv->...iv", weights, V)
    return output, weights
