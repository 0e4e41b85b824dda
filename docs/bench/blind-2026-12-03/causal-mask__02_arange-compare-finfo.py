import math
import torch


def causal_mask(n):
    if not n >= 1:
        raise ValueError("causal_mask needs n >= 1")
    i = torch.arange(n).unsqueeze(1)   # (n, 1) query index
    j = torch.arange(n).unsqueeze(0)   # (1, n) key index
    return j <= i


def causal_attention(Q, K, V):
    if Q.shape[-2] != K.shape[-2] or K.shape[-2] != V.shape[-2]:
        raise ValueError(f"lengths differ: {Q.shape[-2]}, {K.shape[-2]}, {V.shape[-2]}")
    if Q.shape[-1] != K.shape[-1]:
        raise ValueError(f"d differs: {Q.shape[-1]} vs {K.shape[-1]}")
    n, d = Q.shape[-2], Q.shape[-1]
    scores = torch.matmul(Q, K.transpose(-2, -1)) * (1.0 / math.sqrt(d))
    allowed = causal_mask(n)
    very_negative = torch.finfo(scores.dtype).min
    scores = torch.where(allowed, scores, torch.tensor(very_negative, dtype=scores.dtype))
    weights = torch.softmax(scores, dim=-1)
    output = torch.matmul(weights, V)
    return output, weights
