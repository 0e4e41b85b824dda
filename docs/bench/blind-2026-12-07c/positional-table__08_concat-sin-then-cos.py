import math

import torch


def positional_encoding(max_len, d_model):
    """Sinusoidal float32 table (max_len, d_model): sin in even columns, cos in odd ones."""
    if max_len < 1:
        raise ValueError("max_len must be >= 1")
    if d_model < 2 or d_model % 2:
        raise ValueError("d_model must be an even number >= 2")
    pos = torch.arange(max_len, dtype=torch.float64).unsqueeze(1)   # (max_len, 1)
    i = torch.arange(d_model // 2, dtype=torch.float64)             # (d_model // 2,)
    angles = pos / 10000 ** (2 * i / d_model)                       # (max_len, d_model // 2)
    P = torch.cat([torch.sin(angles), torch.cos(angles)], dim=1)    # sines, then cosines
    return P.float()


def add_positions(X):
    """X (B, T, d_model) -> X * sqrt(d_model) + P[:T]."""
    B, T, d_model = X.shape
    return X * math.sqrt(d_model) + positional_encoding(T, d_model).to(X.dtype)
