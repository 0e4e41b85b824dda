"""Nadaraya–Watson 核回归：高斯核 + softmax，全部用广播完成。"""

import torch


def nw_predict(x_query, x_keys, y_values, w=1.0):
    """Return (pred (n,), attention (n, m)) of Gaussian-kernel attention pooling."""
    for name, t in (("x_query", x_query), ("x_keys", x_keys), ("y_values", y_values)):
        if t.dim() != 1:
            raise ValueError(f"{name} 必须是一维张量，现在是 {t.dim()} 维")
    if x_keys.shape[0] != y_values.shape[0]:
        raise ValueError("x_keys 和 y_values 的长度必须相同（每个 x 对应一个 y）")
    # (n, 1) - (1, m) -> (n, m)：每个查询到每个键的距离
    diff = x_query.unsqueeze(1) - x_keys.unsqueeze(0)
    # 注意 w 乘在平方里面
    attention = torch.softmax(-0.5 * (diff * w) ** 2, dim=1)
    return attention @ y_values, attention
