import math

import torch
import torch.nn.functional as F
from torch import nn


class SimpleMultiHeadAttention(nn.Module):
    """多头自注意力：逐个头循环计算，再按顺序拼接。"""

    def __init__(self, embed_dim, num_heads):
        super().__init__()
        if embed_dim % num_heads != 0:
            raise ValueError("embed_dim 必须能被 num_heads 整除")
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.d_k = embed_dim // num_heads
        self.query = nn.Linear(embed_dim, embed_dim)
        self.key = nn.Linear(embed_dim, embed_dim)
        self.value = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, mask=None):
        q, k, v = self.query(x), self.key(x), self.value(x)  # (B, T, E)
        outs, ws = [], []
        for i in range(self.num_heads):
            sl = slice(i * self.d_k, (i + 1) * self.d_k)    # 第 i 个头的特征
            qi, ki, vi = q[..., sl], k[..., sl], v[..., sl]  # (B, T, d_k)
            s = qi @ ki.transpose(-2, -1) / math.sqrt(self.d_k)
            if mask is not None:
                # 把掩码广播到 (B, h, T, T) 后取出第 i 个头
                m_i = torch.broadcast_to(mask, (x.shape[0], self.num_heads, x.shape[1], x.shape[1]))[:, i]
                s = s.masked_fill(~m_i, float("-inf"))
            w = F.softmax(s, dim=-1)
            ws.append(w)
            outs.append(w @ vi)
        weights = torch.stack(ws, dim=1)        # (B, h, T, T)
        concat = torch.cat(outs, dim=-1)        # (B, T, E)，各头按顺序并排
        return self.out_proj(concat), weights
