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

    def forward(self, x, mask=None):
        q, k, v = self.query(x), self.key(x), self.value(x)
        heads, ws = [], []
        for i in range(self.num_heads):
            qi = q[:, :, i:i + self.d_k]
            ki = k[:, :, i:i + self.d_k]
            vi = v[:, :, i:i + self.d_k]
            s = qi @ ki.transpose(-2, -1) / math.sqrt(self.d_k)
            if mask is not None:
                mi = mask if mask.dim() < 4 else mask[:, min(i, mask.shape[1] - 1)]
                s = s.masked_fill(~mi, float("-inf"))
            w = s.softmax(dim=-1)
            heads.append(w @ vi)
            ws.append(w)
        return self.out_proj(torch.cat(heads, dim=-1)), torch.stack(ws, dim=1)
