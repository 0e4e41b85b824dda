import math

import torch

# 位置编码：偶数列 sin，奇数列 cos（cos(x) = sin(x + π/2)）


def positional_encoding(max_len, d_model):
    if max_len < 1:
        raise ValueError("max_len 至少为 1")
    if d_model < 2 or d_model % 2 == 1:
        raise ValueError("d_model 必须是不小于 2 的偶数")
    pos = torch.arange(max_len, dtype=torch.float64).reshape(-1, 1)
    i = torch.arange(d_model // 2, dtype=torch.float64)
    angle = pos / torch.pow(10000.0, 2 * i / d_model)    # (max_len, d_model/2)
    table = torch.stack([torch.sin(angle), torch.sin(angle + math.pi / 2)], dim=-1)  # 交错排列
    return table.reshape(max_len, d_model).to(torch.float32)


def add_positions(X):
    B, T, d = X.shape
    out = X.mul(d ** 0.5)             # 不原地修改 X
    out = out + positional_encoding(T, d).type(X.dtype)
    print("add_positions:", tuple(out.shape), out.dtype)
    return out
