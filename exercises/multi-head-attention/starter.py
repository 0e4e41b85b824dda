import math

import torch
from torch import nn


class SimpleMultiHeadAttention(nn.Module):
    """Multi-head self-attention: query/key/value/out_proj are nn.Linear(E, E) with bias."""

    def __init__(self, embed_dim, num_heads):
        super().__init__()
        # TODO: raise ValueError when embed_dim % num_heads != 0
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.d_k = embed_dim // num_heads
        self.query = nn.Linear(embed_dim, embed_dim)
        self.key = nn.Linear(embed_dim, embed_dim)
        self.value = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, mask=None):
        B, T, E = x.shape
        # Single head for now, like the lesson's SimpleSelfAttention.
        # TODO: split into heads (B, h, T, d_k), attend per head, merge, apply out_proj.
        q, k, v = self.query(x), self.key(x), self.value(x)  # (B, T, E)
        scores = q @ k.transpose(-2, -1) / math.sqrt(E)  # (B, T, T)
        weights = torch.softmax(scores, dim=-1)
        return weights @ v, weights.unsqueeze(1)
