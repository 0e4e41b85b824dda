import math

import torch


def positional_encoding(max_len, d_model):
    """Sinusoidal float32 table (max_len, d_model): sin in even columns, cos in odd ones."""
    if max_len < 1:
        raise ValueError("max_len must be >= 1")
    if d_model < 2 or d_model % 2:
        raise ValueError("d_model must be an even number >= 2")
    P = torch.zeros(max_len, d_model)
    for pos in range(max_len):
        for j in range(d_model):
            angle = pos / 10000 ** (2 * j / d_model)
            if j % 2 == 0:
                P[pos, j] = math.sin(angle)
            else:
                P[pos, j] = math.cos(angle)
    return P


def add_positions(X):
    """X (B, T, d_model) -> X * sqrt(d_model) + P[:T]."""
    B, T, d_model = X.shape
    return X * math.sqrt(d_model) + positional_encoding(T, d_model).to(X.dtype)
