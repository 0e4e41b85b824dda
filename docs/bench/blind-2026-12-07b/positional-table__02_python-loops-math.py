"""Starter for the positional-table exercise: fill in the TODOs (see the statement)."""

import math

import torch


def positional_encoding(max_len, d_model):
    """Sinusoidal float32 table (max_len, d_model): sin in even columns, cos in odd ones."""
    if max_len < 1:
        raise ValueError("max_len must be >= 1")
    if d_model < 2 or d_model % 2 == 1:
        raise ValueError("d_model must be even and at least 2")
    rows = []
    for pos in range(max_len):
        row = []
        for i in range(d_model // 2):
            angle = pos / (10000 ** (2 * i / d_model))
            row.append(math.sin(angle))
            row.append(math.cos(angle))
        rows.append(row)
    return torch.tensor(rows, dtype=torch.float32)


def add_positions(X):
    """X (B, T, d_model) -> X * sqrt(d_model) + P[:T]."""
    B, T, d_model = X.shape
    P = positional_encoding(T, d_model).to(dtype=X.dtype, device=X.device)
    scaled = X * (d_model ** 0.5)        # a new tensor, X stays as it is
    return scaled + P.unsqueeze(0)       # (1, T, d) broadcast over the batch
