import math

import torch
import torch.nn.functional as F


def causal_mask(n):
    """Boolean (n, n) mask, True where query i may attend to key j (j <= i)."""
    # n 必须至少为 1
    if n < 1:
        raise ValueError("n 必须 >= 1 (n must be at least 1)")
    i = torch.arange(n).unsqueeze(1)  # 行：查询
    j = torch.arange(n).unsqueeze(0)  # 列：键
    return j <= i


def causal_attention(Q, K, V):
    """Return (output (..., n, d_v), weights (..., n, n)) of causally masked self-attention."""
    # 检查长度和宽度
    if not (Q.size(-2) == K.size(-2) == V.size(-2)):
        raise ValueError("Q、K、V 的长度 n 必须相同")
    if Q.size(-1) != K.size(-1):
        raise ValueError("Q 和 K 的最后一维 d 必须相同")
    n = Q.size(-2)
    # 加性掩码：可见位置为 0，未来位置为 -inf（论文笔记的写法）
    additive = torch.zeros(n, n, dtype=Q.dtype).masked_fill(~causal_mask(n), float("-inf"))
    scores = torch.matmul(Q, K.transpose(-1, -2)) * Q.size(-1) ** -0.5 + additive
    weights = F.softmax(scores, dim=-1)
    return torch.matmul(weights, V), weights
