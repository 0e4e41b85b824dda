"""Nadaraya–Watson 核回归：逐个查询循环，手写数值稳定的 softmax。"""

import torch


def nw_predict(x_query, x_keys, y_values, w=1.0):
    """Return (pred (n,), attention (n, m)) of Gaussian-kernel attention pooling."""
    # 输入检查
    if x_query.dim() != 1 or x_keys.dim() != 1 or y_values.dim() != 1:
        raise ValueError("所有输入都必须是一维张量")
    if x_keys.numel() != y_values.numel():
        raise ValueError("x_keys 与 y_values 的长度必须相同")
    n, m = x_query.shape[0], x_keys.shape[0]
    rows = []
    for i in range(n):
        s = -0.5 * ((x_query[i] - x_keys) * w) ** 2   # (m,) 注意 w 在平方里面
        s = s - s.max()                               # 减去本行最大值，避免下溢成 0/0
        e = torch.exp(s)
        rows.append(e / e.sum())
    attention = torch.stack(rows)                     # (n, m)，dtype 跟随输入
    pred = (attention * y_values).sum(dim=1)          # (n,)
    return pred, attention
