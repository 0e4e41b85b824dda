import math

import torch


def positional_encoding(max_len, d_model):
    if max_len < 1:
        raise ValueError("max_len must be at least 1")
    if d_model < 2 or d_model % 2 != 0:
        raise ValueError("d_model must be an even number >= 2")
    P = torch.zeros(max_len, d_model)
    pos = torch.arange(max_len, dtype=torch.float32).unsqueeze(1)
    div = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float32) * (-math.log(10000.0) / d_model))
    P[:, 0::2] = torch.sin(pos * div)
    P[:, 1::2] = torch.cos(pos * div)
    return P


def add_positions(X):
    B, T, d_model = X.shape
    X *= math.sqrt(d_model)
    X += positional_encoding(T, d_model).to(X.dtype)
    return X
