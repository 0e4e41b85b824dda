"""因果掩码：上三角（不含对角线）是“未来”，要挡住。"""

import math

import torch


def causal_mask(n):
    """Boolean (n, n) mask, True where query i may attend to key j (j <= i)."""
    if n < 1:
        raise ValueError("n 必须 >= 1")
    future = torch.ones(n, n).triu(diagonal=1).bool()   # j > i 的位置
    return ~future


def causal_attention(Q, K, V):
    """Return (output (..., n, d_v), weights (..., n, n)) of causally masked self-attention."""
    n, d = Q.shape[-2:]
    if K.shape[-2] != n or V.shape[-2] != n:
        raise ValueError("Q、K、V 的长度 n 必须相同")
    if K.shape[-1] != d:
        raise ValueError("Q 和 K 的最后一维 d 必须相同")
    # 打分：(..., n, d) x (..., n, d) -> (..., n, n)
    scores = torch.einsum("...id,...jd->...ij", Q, K) / math.sqrt(d)
    scores = scores.masked_fill(~causal_mask(n), float("-inf"))   # softmax 之前挡住未来
    weights = scores.softmax(dim=-1)
    out = torch.einsum("...ij,...jv->...iv", weights, V)
    return out, weights
