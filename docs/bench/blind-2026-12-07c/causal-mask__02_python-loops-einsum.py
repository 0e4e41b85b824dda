import math

import torch


def causal_mask(n):
    """Boolean (n, n) mask, True where query i may attend to key j (j <= i)."""
    if not n >= 1:
        raise ValueError("causal_mask needs n >= 1")
    rows = []
    for i in range(n):
        rows.append([j <= i for j in range(n)])
    return torch.tensor(rows, dtype=torch.bool)


def causal_attention(Q, K, V):
    """Return (output (..., n, d_v), weights (..., n, n)) of causally masked self-attention."""
    n, d = Q.shape[-2], Q.shape[-1]
    if K.shape[-2] != n or V.shape[-2] != n:
        raise ValueError(f"lengths differ: Q {Q.shape[-2]}, K {K.shape[-2]}, V {V.shape[-2]}")
    if K.shape[-1] != d:
        raise ValueError(f"Q has d={d} but K has d={K.shape[-1]}")
    scores = torch.einsum("...id,...jd->...ij", Q, K) / math.sqrt(d)
    allowed = causal_mask(n)
    lowest = torch.finfo(scores.dtype).min
    scores = torch.where(allowed, scores, torch.tensor(lowest, dtype=scores.dtype))
    weights = scores.softmax(-1)
    out = torch.einsum("...ij,...jv->...iv", weights, V)
    return out, weights
