import math

import torch
from torch import nn


class SimpleMultiHeadAttention(nn.Module):
    """多头自注意力：query/key/value/out_proj 都是带偏置的 nn.Linear(E, E)。"""

    def __init__(self, embed_dim, num_heads):
        super().__init__()
        # embed_dim 必须能被 num_heads 整除
        if embed_dim % num_heads:
            raise ValueError("embed_dim 必须能被 num_heads 整除 (embed_dim must be divisible by num_heads)")
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.d_k = embed_dim // num_heads
        self.query = nn.Linear(embed_dim, embed_dim)
        self.key = nn.Linear(embed_dim, embed_dim)
        self.value = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, mask=None):
        B, T, E = x.shape
        q, k, v = self.query(x), self.key(x), self.value(x)  # (B, T, E)
        if mask is not None:
            # 广播到 (B, h, T, T)，方便按头取
            mask = torch.broadcast_to(mask, (B, self.num_heads, T, T))
        outs, all_w = [], []
        for h in range(self.num_heads):
            sl = slice(h * self.d_k, (h + 1) * self.d_k)  # 第 h 个头的特征
            qh, kh, vh = q[..., sl], k[..., sl], v[..., sl]  # (B, T, d_k)
            s = qh @ kh.transpose(1, 2) / math.sqrt(self.d_k)  # (B, T, T)
            if mask is not None:
                s = s.masked_fill(~mask[:, h], float("-inf"))
            w = torch.softmax(s, dim=-1)
            outs.append(w @ vh)
            all_w.append(w)
        concat = torch.cat(outs, dim=-1)  # 按顺序拼接各头 -> (B, T, E)
        weights = torch.stack(all_w, dim=1)  # (B, h, T, T)
        return self.out_proj(concat), weights
