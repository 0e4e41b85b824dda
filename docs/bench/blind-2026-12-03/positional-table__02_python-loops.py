import math

import torch


def positional_encoding(max_len, d_model):
    # 检查参数
    if max_len < 1:
        raise ValueError("max_len 至少为 1")
    if d_model % 2 == 1 or d_model < 2:
        raise ValueError("d_model 必须是不小于 2 的偶数")
    rows = []
    for pos in range(max_len):
        row = []
        for i in range(d_model // 2):
            angle = pos / math.pow(10000, 2 * i / d_model)
            row.append(math.sin(angle))   # 第 2i 列
            row.append(math.cos(angle))   # 第 2i+1 列
        rows.append(row)
    return torch.tensor(rows, dtype=torch.float32)


def add_positions(X):
    B, T, d_model = X.shape
    P = positional_encoding(T, d_model).to(dtype=X.dtype)
    return X * math.sqrt(d_model) + P.unsqueeze(0)   # 对 batch 广播
