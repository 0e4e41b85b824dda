"""正弦位置编码：先分别算 sin 和 cos，再交错拼接。"""

import math

import torch


def positional_encoding(max_len, d_model):
    """Sinusoidal float32 table (max_len, d_model): sin in even columns, cos in odd ones."""
    if max_len < 1:
        raise ValueError("max_len 至少为 1")
    if d_model < 2 or d_model % 2:
        raise ValueError("d_model 必须是不小于 2 的偶数")
    pos = torch.arange(max_len, dtype=torch.float64)[:, None]            # (max_len, 1)
    i = torch.arange(d_model // 2, dtype=torch.float64)[None, :]         # (1, d/2)
    angle = pos / torch.pow(10000.0, 2 * i / d_model)                     # (max_len, d/2)
    # stack 到最后一维得到 (max_len, d/2, 2)，展平后就是 sin, cos, sin, cos, ...
    P = torch.stack((torch.sin(angle), torch.cos(angle)), dim=-1).reshape(max_len, d_model)
    return P.to(torch.float32)


def add_positions(X):
    """X (B, T, d_model) -> X * sqrt(d_model) + P[:T]."""
    B, T, d_model = X.shape
    P = positional_encoding(T, d_model).type(X.dtype)
    return torch.add(X.mul(math.sqrt(d_model)), P)   # 不改动 X 本身
