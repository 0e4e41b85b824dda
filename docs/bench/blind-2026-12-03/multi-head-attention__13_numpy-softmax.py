import math

import numpy as np
import torch
from torch import nn


def np_softmax(a):
    a = a - a.max(axis=-1, keepdims=True)
    e = np.exp(a)
    return e / e.sum(axis=-1, keepdims=True)


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
        B, T, E = x.shape
        q = self.query(x).view(B, T, self.num_heads, self.d_k).transpose(1, 2)
        k = self.key(x).view(B, T, self.num_heads, self.d_k).transpose(1, 2)
        v = self.value(x).view(B, T, self.num_heads, self.d_k).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_k)
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        # softmax in numpy (I trust my own version more)
        weights = torch.from_numpy(np_softmax(scores.detach().cpu().numpy()))
        out = (weights @ v).transpose(1, 2).reshape(B, T, E)
        return self.out_proj(out), weights
