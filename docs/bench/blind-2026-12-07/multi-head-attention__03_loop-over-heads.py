import math

import torch
from torch import nn


class SimpleMultiHeadAttention(nn.Module):
    """Multi-head self-attention: query/key/value/out_proj are nn.Linear(E, E) with bias."""

    def __init__(self, embed_dim, num_heads):
        super().__init__()
        if embed_dim % num_heads != 0:
            raise ValueError("embed_dim has to be a multiple of num_heads")
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.d_k = embed_dim // num_heads
        self.query = nn.Linear(embed_dim, embed_dim)
        self.key = nn.Linear(embed_dim, embed_dim)
        self.value = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, mask=None):
        B, T, E = x.shape
        q, k, v = self.query(x), self.key(x), self.value(x)
        if mask is not None:
            mask = mask.expand(B, self.num_heads, T, T)
        outputs, all_weights = [], []
        # one head at a time, like SimpleSelfAttention on a slice of the features
        for i in range(self.num_heads):
            cols = slice(i * self.d_k, (i + 1) * self.d_k)
            qi, ki, vi = q[..., cols], k[..., cols], v[..., cols]
            s = qi @ ki.transpose(1, 2) / math.sqrt(self.d_k)      # (B, T, T)
            if mask is not None:
                s = s.masked_fill(~mask[:, i], float("-inf"))
            w = torch.softmax(s, dim=-1)
            outputs.append(w @ vi)
            all_weights.append(w)
        concat = torch.cat(outputs, dim=-1)                        # (B, T, E), heads in order
        return self.out_proj(concat), torch.stack(all_weights, dim=1)
