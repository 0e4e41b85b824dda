import math

import torch


def positional_encoding(max_len, d_model):
    if max_len < 1:
        raise ValueError(f"max_len must be >= 1 (got {max_len})")
    if d_model % 2 or d_model < 2:
        raise ValueError(f"d_model must be even and >= 2 (got {d_model})")
    rows = []
    for pos in range(max_len):
        row = []
        for i in range(d_model // 2):
            angle = pos / math.pow(10000, 2 * i / d_model)
            row += [math.sin(angle), math.cos(angle)]
        rows.append(row)
    return torch.tensor(rows, dtype=torch.float32)


def add_positions(X):
    B, T, d_model = X.shape
    P = positional_encoding(T, d_model).to(dtype=X.dtype)
    scaled = X * math.sqrt(d_model)
    return scaled + P.unsqueeze(0)
