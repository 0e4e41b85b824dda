import math

import torch


def positional_encoding(max_len, d_model):
    """Sinusoidal float32 table (max_len, d_model): sin in even columns, cos in odd ones."""
    if max_len < 1:
        raise ValueError("need at least one position")
    if d_model % 2 != 0 or d_model < 2:
        raise ValueError("d_model must be even and at least 2")
    rows = []
    for pos in range(max_len):
        row = [0.0] * d_model
        for col in range(0, d_model, 2):       # col = 2i
            angle = pos / (10000 ** (col / d_model))
            row[col] = math.sin(angle)
            row[col + 1] = math.cos(angle)
        rows.append(row)
    return torch.tensor(rows, dtype=torch.float32)


def add_positions(X):
    """X (B, T, d_model) -> X * sqrt(d_model) + P[:T]."""
    B, T, d_model = X.shape
    table = positional_encoding(T, d_model).to(dtype=X.dtype, device=X.device)
    scaled = X * math.sqrt(d_model)
    return scaled + table.unsqueeze(0)   # broadcast over the batch
