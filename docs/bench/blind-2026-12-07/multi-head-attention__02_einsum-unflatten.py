import math

import torch
from torch import nn


class SimpleMultiHeadAttention(nn.Module):
    """Multi-head self-attention: query/key/value/out_proj are nn.Linear(E, E) with bias."""

    def __init__(self, embed_dim, num_heads):
        super().__init__()
        if num_heads <= 0 or embed_dim % num_heads:
            raise ValueError("embed_dim must be divisible by num_heads")
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.d_k = embed_dim // num_heads
        self.query = nn.Linear(embed_dim, embed_dim)
        self.key = nn.Linear(embed_dim, embed_dim)
        self.value = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, mask=None):
        h, d_k = self.num_heads, self.d_k
        # unflatten the feature axis into (h, d_k): q[b, t, head, feature]
        q = self.query(x).unflatten(-1, (h, d_k))
        k = self.key(x).unflatten(-1, (h, d_k))
        v = self.value(x).unflatten(-1, (h, d_k))
        scores = torch.einsum("bihd,bjhd->bhij", q, k) / math.sqrt(d_k)   # (B, h, T, T)
        if mask is not None:
            scores = scores.masked_fill(mask.logical_not(), float("-inf"))
        weights = scores.softmax(dim=-1)
        context = torch.einsum("bhij,bjhd->bihd", weights, v)              # (B, T, h, d_k)
        return self.out_proj(context.flatten(-2)), weights
