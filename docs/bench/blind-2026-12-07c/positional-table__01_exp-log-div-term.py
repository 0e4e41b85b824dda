"""Sinusoidal positional encoding."""

import math

import torch


def positional_encoding(max_len, d_model):
    """Sinusoidal float32 table (max_len, d_model): sin in even columns, cos in odd ones."""
    if max_len < 1:
        raise ValueError(f"max_len must be at least 1, got {max_len}")
    if d_model < 2 or d_model % 2 != 0:
        raise ValueError(f"d_model must be an even number >= 2, got {d_model}")
    P = torch.zeros(max_len, d_model)
    # angles in float64 (positions up to 100 lose digits in float32); P itself stays float32
    position = torch.arange(max_len, dtype=torch.float64).unsqueeze(1)  # (max_len, 1)
    div_term = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float64) * (-math.log(10000.0) / d_model))
    P[:, 0::2] = torch.sin(position * div_term)
    P[:, 1::2] = torch.cos(position * div_term)
    return P


def add_positions(X):
    """X (B, T, d_model) -> X * sqrt(d_model) + P[:T]."""
    B, T, d_model = X.shape
    return X * math.sqrt(d_model) + positional_encoding(T, d_model).to(X.dtype)
