"""正弦位置编码：用 numpy 算表，再转成 float32 的 torch 张量。"""

import math

import numpy as np
import torch


def positional_encoding(max_len, d_model):
    """Sinusoidal float32 table (max_len, d_model): sin in even columns, cos in odd ones."""
    if max_len < 1:
        raise ValueError("max_len 至少为 1")
    if d_model % 2 or d_model < 2:
        raise ValueError("d_model 必须是不小于 2 的偶数")
    pos = np.arange(max_len)[:, None]                      # (max_len, 1)
    two_i = np.arange(0, d_model, 2)[None, :]              # 2i = 0, 2, 4, ...
    angle = pos / np.power(10000.0, two_i / d_model)       # 每一对 sin/cos 共用一个频率
    table = np.empty((max_len, d_model))
    table[:, 0::2] = np.sin(angle)                         # 偶数列放 sin
    table[:, 1::2] = np.cos(angle)                         # 奇数列放 cos
    return torch.from_numpy(table).float()


def add_positions(X):
    """X (B, T, d_model) -> X * sqrt(d_model) + P[:T]."""
    _, T, d_model = X.shape
    P = positional_encoding(T, d_model).to(dtype=X.dtype, device=X.device)
    return X * math.sqrt(d_model) + P.unsqueeze(0)         # 在 batch 维上广播
