"""因果掩码练习：论文笔记里的加性掩码写法。"""

import math

import torch


def causal_mask(n):
    """Boolean (n, n) mask, True where query i may attend to key j (j <= i)."""
    if n < 1:
        raise ValueError("n 必须至少为 1")
    m = torch.zeros((n, n), dtype=torch.bool)
    for i in range(n):          # 第 i 个查询
        for j in range(i + 1):  # 可以看到 0..i（包括自己）
            m[i, j] = True
    return m


def causal_attention(Q, K, V):
    """Return (output (..., n, d_v), weights (..., n, n)) of causally masked self-attention."""
    # 检查长度和维度
    if Q.shape[-2] != K.shape[-2] or K.shape[-2] != V.shape[-2]:
        raise ValueError("Q、K、V 的长度 n 必须相同")
    if Q.shape[-1] != K.shape[-1]:
        raise ValueError("Q 和 K 的最后一维 d 必须相同")
    n = Q.shape[-2]
    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])  # (..., n, n)
    # 加性掩码：对角线以上为 -inf，其余为 0（和论文笔记一样）
    additive = torch.triu(torch.full((n, n), float("-inf"), dtype=Q.dtype), diagonal=1)
    weights = torch.softmax(scores + additive, dim=-1)
    return weights @ V, weights
