import math

import torch
from torch import nn


class SimpleMultiHeadAttention(nn.Module):
    """Multi-head self-attention: query/key/value/out_proj are nn.Linear(E, E) with bias."""

    def __init__(self, embed_dim, num_heads):
        super().__init__()
        assert embed_dim % num_heads == 0, "embed_dim must be divisible by num_heads"
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.d_k = embed_dim // num_heads
        self.query = nn.Linear(embed_dim, embed_dim)
        self.key = nn.Linear(embed_dim, embed_dim)
        self.value = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, mask=None):
        B, T, E = x.shape
        h, d_k = self.num_heads, self.d_k
        q = self.query(x).view(B, T, h, d_k).transpose(1, 2)
        k = self.key(x).view(B, T, h, d_k).transpose(1, 2)
        v = self.value(x).view(B, T, h, d_k).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        out = (weights @ v).transpose(1, 2).contiguous().view(B, T, E)
        return self.out_proj(out), weights
