import math

import torch


def positional_encoding(max_len, d_model):
    if max_len < 1:
        raise ValueError("max_len must be at least 1")
    if d_model < 2 or d_model % 2 != 0:
        raise ValueError("d_model must be an even number >= 2")
    pos = torch.arange(max_len, dtype=torch.float64)[:, None]
    cols = torch.arange(d_model, dtype=torch.float64)[None, :]
    angle = pos / 10000 ** (cols / d_model)          # one frequency per column
    P = torch.where(cols.long() % 2 == 0, torch.sin(angle), torch.cos(angle))
    return P.float()


def add_positions(X):
    B, T, d_model = X.shape
    return X * math.sqrt(d_model) + positional_encoding(T, d_model).to(X.dtype)
