import math

import torch


def positional_encoding(max_len, d_model):
    if max_len < 1:
        raise ValueError("max_len must be at least 1")
    if d_model < 2 or d_model % 2 != 0:
        raise ValueError("d_model must be an even number >= 2")
    pos = torch.arange(max_len, dtype=torch.float64).unsqueeze(1)
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64)
    angle = pos * torch.pow(10000.0, two_i / d_model)      # pos / 10000^(2i/d)
    P = torch.zeros(max_len, d_model, dtype=torch.float64)
    P[:, 0::2] = torch.sin(angle)
    P[:, 1::2] = torch.cos(angle)
    return P.float()


def add_positions(X):
    B, T, d_model = X.shape
    return X * math.sqrt(d_model) + positional_encoding(T, d_model).to(X.dtype)
