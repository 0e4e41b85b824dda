"""Sinusoidal positional encoding (vectorised)."""

import math

import torch


def positional_encoding(max_len, d_model):
    """Sinusoidal float32 table (max_len, d_model): sin in even columns, cos in odd ones."""
    if max_len < 1:
        raise ValueError(f"max_len must be >= 1, got {max_len}")
    if d_model < 2 or d_model % 2 != 0:
        raise ValueError(f"d_model must be an even number >= 2, got {d_model}")
    P = torch.zeros(max_len, d_model)
    pos = torch.arange(max_len, dtype=torch.float32).unsqueeze(1)          # (max_len, 1)
    div = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float32) * (-math.log(10000.0) / d_model))
    P[:, 0::2] = torch.sin(pos * div)
    P[:, 1::2] = torch.cos(pos * div)
    return P


def add_positions(X):
    """X (B, T, d_model) -> X * sqrt(d_model) + P[:T]."""
    B, T, d_model = X.shape
    return X * math.sqrt(d_model) + positional_encoding(T, d_model).to(X.dtype)
