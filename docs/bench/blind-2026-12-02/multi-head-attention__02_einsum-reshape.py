import math

import torch
import torch.nn.functional as F
from torch import nn


class SimpleMultiHeadAttention(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        if num_heads <= 0 or embed_dim % num_heads:
            raise ValueError("embed_dim must be a multiple of num_heads")
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.d_k = embed_dim // num_heads
        self.query = nn.Linear(embed_dim, embed_dim, bias=True)
        self.key = nn.Linear(embed_dim, embed_dim, bias=True)
        self.value = nn.Linear(embed_dim, embed_dim, bias=True)
        self.out_proj = nn.Linear(embed_dim, embed_dim, bias=True)

    def forward(self, x, mask=None):
        B, T, E = x.shape
        h, d = self.num_heads, self.d_k
        q = self.query(x).reshape(B, T, h, d)
        k = self.key(x).reshape(B, T, h, d)
        v = self.value(x).reshape(B, T, h, d)
        scores = torch.einsum("bthd,bshd->bhts", q, k) * (d ** -0.5)
        if mask is not None:
            scores = scores.masked_fill(mask.logical_not(), -1e9)
        weights = F.softmax(scores, dim=-1)
        heads = torch.einsum("bhts,bshd->bthd", weights, v)   # (B, T, h, d)
        out = self.out_proj(heads.reshape(B, T, E))
        return out, weights
