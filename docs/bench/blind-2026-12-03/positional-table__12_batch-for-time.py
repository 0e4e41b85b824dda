import math

import torch


def positional_encoding(max_len, d_model):
    if max_len < 1:
        raise ValueError("max_len must be >= 1")
    if d_model < 2 or d_model % 2 != 0:
        raise ValueError("d_model must be even and >= 2")
    pos = torch.arange(max_len, dtype=torch.float32).unsqueeze(1)
    div = torch.pow(10000.0, torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    P = torch.zeros(max_len, d_model)
    P[:, 0::2] = torch.sin(pos / div)
    P[:, 1::2] = torch.cos(pos / div)
    return P


def add_positions(X):
    d_model = X.shape[-1]
    P = positional_encoding(X.shape[0], d_model).to(X.dtype)   # one row per position
    return X * math.sqrt(d_model) + P.unsqueeze(1)
