import math

import torch
from torch import nn


class SimpleMultiHeadAttention(nn.Module):
    # 多头自注意力：四个线性层都带偏置，名字必须是 query/key/value/out_proj

    def __init__(self, embed_dim, num_heads):
        super().__init__()
        if embed_dim % num_heads:
            raise ValueError("embed_dim 必须能被 num_heads 整除")
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.d_k = embed_dim // num_heads
        self.query = nn.Linear(embed_dim, embed_dim, bias=True)
        self.key = nn.Linear(embed_dim, embed_dim, bias=True)
        self.value = nn.Linear(embed_dim, embed_dim, bias=True)
        self.out_proj = nn.Linear(embed_dim, embed_dim, bias=True)

    def forward(self, x, mask=None):
        B, T, E = x.shape
        h, dk = self.num_heads, self.d_k
        # (B, T, E) -> (B, T, h, d_k)，einsum 里直接把 h 放到前面
        q = self.query(x).reshape(B, T, h, dk)
        k = self.key(x).reshape(B, T, h, dk)
        v = self.value(x).reshape(B, T, h, dk)
        scores = torch.einsum("bthd,bshd->bhts", q, k) / math.sqrt(dk)
        if mask is not None:
            scores = scores.masked_fill(mask == False, float("-inf"))  # noqa: E712
        attn = scores.softmax(dim=-1)                      # (B, h, T, T)
        out = torch.einsum("bhts,bshd->bthd", attn, v)     # (B, T, h, d_k)
        out = out.reshape(B, T, E)                         # 各头按顺序并排
        return self.out_proj(out), attn
