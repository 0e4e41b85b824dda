"""Known mistake for multi-head-attention: the scores computed as K·Qᵀ, so row i holds every query's score against key i."""

import math

import torch
from torch import nn


class SimpleMultiHeadAttention(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        if embed_dim % num_heads:
            raise ValueError(f"embed_dim {embed_dim} is not divisible by num_heads {num_heads}")
        self.num_heads = num_heads
        self.d_k = embed_dim // num_heads
        self.query = nn.Linear(embed_dim, embed_dim)
        self.key = nn.Linear(embed_dim, embed_dim)
        self.value = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def _split(self, t):
        B, T, E = t.shape
        return t.view(B, T, self.num_heads, self.d_k).transpose(1, 2)  # (B, h, T, d_k)

    def forward(self, x, mask=None):
        B, T, E = x.shape
        q, k, v = self._split(self.query(x)), self._split(self.key(x)), self._split(self.value(x))
        scores = k @ q.transpose(-2, -1) / math.sqrt(self.d_k)  # mistake: K·Qᵀ instead of Q·Kᵀ
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        heads = weights @ v  # (B, h, T, d_k)
        merged = heads.transpose(1, 2).reshape(B, T, E)  # (B, T, E), heads side by side
        return self.out_proj(merged), weights
