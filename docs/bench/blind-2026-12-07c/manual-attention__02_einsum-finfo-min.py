import math

import torch

Q = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
K = Q.clone()
V = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]])


# Part B first, so that Part A can reuse it
def attention(Q, K, V, mask=None):
    """Return (context, weights) for Q (..., n, d_k), K (..., m, d_k), V (..., m, d_v)."""
    dk = Q.size(-1)
    logits = torch.einsum("...nd,...md->...nm", Q, K) * (1.0 / math.sqrt(dk))
    if mask is not None:
        # smallest finite number of this dtype: exp(min - max) is exactly 0
        very_negative = torch.finfo(logits.dtype).min
        logits = torch.where(mask, logits, torch.full_like(logits, very_negative))
    attn = torch.softmax(logits, dim=-1)
    ctx = torch.einsum("...nm,...mv->...nv", attn, V)
    return ctx, attn


# Part A (computed, then turned into plain lists)
_ctx, _w = attention(Q, K, V)
scores = (Q @ K.T / 2.0).tolist()
weights = _w.tolist()
context = _ctx[0].tolist()
