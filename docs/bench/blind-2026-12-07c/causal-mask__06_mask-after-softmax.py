import math

import torch


def causal_mask(n):
    """Boolean (n, n) mask, True where query i may attend to key j (j <= i)."""
    if n < 1:
        raise ValueError("n must be at least 1")
    return torch.ones(n, n, dtype=torch.bool).tril()


def causal_attention(Q, K, V):
    """Return (output (..., n, d_v), weights (..., n, n)) of causally masked self-attention."""
    n = Q.size(-2)
    if K.size(-2) != n or V.size(-2) != n:
        raise ValueError("Q, K, V lengths differ")
    if Q.size(-1) != K.size(-1):
        raise ValueError("Q and K widths differ")
    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.size(-1))
    weights = torch.softmax(scores, dim=-1)
    # no peeking: the future gets weight 0
    weights = weights.masked_fill(~causal_mask(n), 0.0)
    return weights @ V, weights
