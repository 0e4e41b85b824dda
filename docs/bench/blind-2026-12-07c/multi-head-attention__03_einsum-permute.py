import math

import torch
import torch.nn.functional as F
from torch import nn


class SimpleMultiHeadAttention(nn.Module):
    """Multi-head self-attention: query/key/value/out_proj are nn.Linear(E, E) with bias."""

    def __init__(self, embed_dim, num_heads):
        super().__init__()
        head_dim, rest = divmod(embed_dim, num_heads)
        if rest != 0:
            raise ValueError(
                f"cannot split embed_dim={embed_dim} into {num_heads} equal heads"
            )
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.d_k = head_dim
        self.query = nn.Linear(embed_dim, embed_dim, bias=True)
        self.key = nn.Linear(embed_dim, embed_dim, bias=True)
        self.value = nn.Linear(embed_dim, embed_dim, bias=True)
        self.out_proj = nn.Linear(embed_dim, embed_dim, bias=True)

    def forward(self, x, mask=None):
        B, T, E = x.shape
        h, dk = self.num_heads, self.d_k
        q = self.query(x).reshape(B, T, h, dk)
        k = self.key(x).reshape(B, T, h, dk)
        v = self.value(x).reshape(B, T, h, dk)
        scores = torch.einsum("bqhd,bkhd->bhqk", q, k) / math.sqrt(dk)
        if mask is not None:
            neg_inf = torch.tensor(float("-inf"), dtype=scores.dtype, device=scores.device)
            scores = torch.where(mask.bool(), scores, neg_inf)
        attn = F.softmax(scores, dim=-1)  # (B, h, T, T)
        ctx = torch.einsum("bhqk,bkhd->bqhd", attn, v).reshape(B, T, E)
        return self.out_proj(ctx), attn
