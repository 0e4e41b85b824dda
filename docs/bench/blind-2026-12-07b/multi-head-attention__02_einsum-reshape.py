import math

import torch
from torch import nn


class SimpleMultiHeadAttention(nn.Module):
    """Multi-head self-attention: query/key/value/out_proj are nn.Linear(E, E) with bias."""

    def __init__(self, embed_dim, num_heads):
        super().__init__()
        if num_heads <= 0 or embed_dim % num_heads:
            raise ValueError("embed_dim must be a multiple of num_heads "
                             f"(got embed_dim={embed_dim}, num_heads={num_heads})")
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.d_k = embed_dim // num_heads
        self.query = nn.Linear(embed_dim, embed_dim)
        self.key = nn.Linear(embed_dim, embed_dim)
        self.value = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, mask=None):
        B, T, E = x.shape
        h, d = self.num_heads, self.d_k
        q = self.query(x).reshape(B, T, h, d)
        k = self.key(x).reshape(B, T, h, d)
        v = self.value(x).reshape(B, T, h, d)
        # einsum does the "move heads before time" for us
        scores = torch.einsum("bthd,bshd->bhts", q, k) / math.sqrt(d)
        if mask is not None:
            scores = torch.where(mask, scores, torch.tensor(float("-inf"), dtype=scores.dtype))
        weights = scores.softmax(dim=-1)
        out = torch.einsum("bhts,bshd->bthd", weights, v).reshape(B, T, E)
        return self.out_proj(out), weights
