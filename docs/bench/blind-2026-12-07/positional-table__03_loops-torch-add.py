"""Positional table filled column pair by column pair."""

import math

import torch


def positional_encoding(max_len, d_model):
    """Sinusoidal float32 table (max_len, d_model): sin in even columns, cos in odd ones."""
    if not isinstance(max_len, int) or max_len < 1:
        raise ValueError("max_len must be a positive integer")
    if d_model < 2 or d_model % 2 == 1:
        raise ValueError("d_model must be even and at least 2")
    positions = torch.arange(max_len, dtype=torch.float64)
    columns = []
    for i in range(d_model // 2):
        freq = 1.0 / (10000.0 ** (2 * i / d_model))
        columns.append(torch.sin(positions * freq))
        columns.append(torch.cos(positions * freq))
    return torch.stack(columns, dim=1).float()


def add_positions(X):
    """X (B, T, d_model) -> X * sqrt(d_model) + P[:T]."""
    d_model = X.shape[-1]
    P = positional_encoding(X.shape[1], d_model).to(X.dtype)
    # torch.add(input, other, alpha) = input + alpha * other, a new tensor
    return torch.add(P, X, alpha=math.sqrt(d_model))
