import math

import torch
from torch import nn


class SimpleMultiHeadAttention(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        if embed_dim % num_heads != 0:
            raise ValueError("embed_dim must be a multiple of num_heads")
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.d_k = embed_dim // num_heads
        self.query = nn.Linear(embed_dim, embed_dim)
        self.key = nn.Linear(embed_dim, embed_dim)
        self.value = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, mask=None):
        Q = self.query(x)
        K = self.key(x)
        V = self.value(x)
        outs, all_w = [], []
        if mask is not None:
            # broadcast once to (B, h, T, T) so that mask[:, i] works for every head
            B, T, _ = x.shape
            mask = mask.expand(B, self.num_heads, T, T)
        for i in range(self.num_heads):
            sl = slice(i * self.d_k, (i + 1) * self.d_k)
            q, k, v = Q[..., sl], K[..., sl], V[..., sl]
            s = q @ k.transpose(-2, -1) / math.sqrt(self.d_k)
            if mask is not None:
                s = s.masked_fill(~mask[:, i], float("-inf"))
            w = torch.softmax(s, dim=-1)
            outs.append(w @ v)
            all_w.append(w)
        out = torch.cat(outs, dim=-1)
        weights = torch.stack(all_w, dim=1)
        return self.out_proj(out), weights
