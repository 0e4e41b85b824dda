import math

import torch


def positional_encoding(max_len, d_model):
    if max_len < 1:
        raise ValueError("max_len must be >= 1")
    if d_model < 2 or d_model % 2 != 0:
        raise ValueError("d_model must be even and >= 2")
    pos = torch.arange(max_len, dtype=torch.float64)[:, None]     # (max_len, 1)
    j = torch.arange(d_model, dtype=torch.float64)[None, :]       # column index
    angle = pos / torch.pow(10000.0, j / d_model)
    P = torch.empty(max_len, d_model, dtype=torch.float64)
    P[:, 0::2] = torch.sin(angle[:, 0::2])
    P[:, 1::2] = torch.cos(angle[:, 1::2])
    return P.float()


def add_positions(X):
    B, T, d_model = X.shape
    return X * math.sqrt(d_model) + positional_encoding(T, d_model).to(X.dtype)
