import math

import torch
from torch import nn


class SimpleMultiHeadAttention(nn.Module):
    """Multi-head self-attention: query/key/value/out_proj are nn.Linear(E, E) with bias."""

    def __init__(self, embed_dim, num_heads):
        super().__init__()
        if embed_dim % num_heads != 0:
            raise ValueError("embed_dim must be divisible by num_heads")
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.d_k = embed_dim // num_heads
        self.query = nn.Linear(embed_dim, embed_dim)
        self.key = nn.Linear(embed_dim, embed_dim)
        self.value = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def split_heads(self, t):
        B, T, _ = t.shape
        return t.view(B, T, self.num_heads, self.d_k).permute(0, 2, 1, 3)

    def forward(self, x, mask=None):
        B, T, E = x.shape
        q = self.split_heads(self.query(x))
        k = self.split_heads(self.key(x))
        v = self.split_heads(self.value(x))
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_k)
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        weights = scores.softmax(dim=-1)
        heads = weights @ v  # (B, h, T, d_k)
        merged = heads.contiguous().view(B, T, E)  # heads side by side
        return self.out_proj(merged), weights
