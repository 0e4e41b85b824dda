import math

import torch


def positional_encoding(max_len, d_model):
    """正弦位置编码表 (max_len, d_model)，float32：偶数列 sin，奇数列 cos。"""
    # 参数检查
    if max_len < 1:
        raise ValueError("max_len 必须 >= 1")
    if d_model < 2 or d_model % 2 == 1:
        raise ValueError("d_model 必须是不小于 2 的偶数")
    pos = torch.arange(max_len, dtype=torch.float64).reshape(-1, 1)       # (max_len, 1)
    i = torch.arange(d_model // 2, dtype=torch.float64)                   # 第 i 对
    angle = pos / torch.pow(torch.tensor(10000.0, dtype=torch.float64), 2 * i / d_model)
    # stack 成 (max_len, d_model/2, 2)，再展平，sin/cos 交错排列
    P = torch.stack([torch.sin(angle), torch.cos(angle)], dim=-1).reshape(max_len, d_model)
    return P.to(torch.float32)


def add_positions(X):
    """X (B, T, d_model) -> X * sqrt(d_model) + P[:T]，不修改 X。"""
    _, T, d_model = X.shape
    P = positional_encoding(T, d_model).type(X.dtype)
    return torch.add(X.mul(d_model ** 0.5), P)
