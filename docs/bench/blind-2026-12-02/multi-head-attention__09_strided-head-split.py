import math

import torch
from torch import nn


class SimpleMultiHeadAttention(nn.Module):
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
        B, T, E = t.shape
        # (B, T, d_k, h) -> (B, h, T, d_k)
        return t.view(B, T, self.d_k, self.num_heads).permute(0, 3, 1, 2)

    def merge_heads(self, t):
        B, h, T, d = t.shape
        return t.permute(0, 2, 3, 1).reshape(B, T, h * d)

    def forward(self, x, mask=None):
        q = self.split_heads(self.query(x))
        k = self.split_heads(self.key(x))
        v = self.split_heads(self.value(x))
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_k)
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        return self.out_proj(self.merge_heads(weights @ v)), weights
