"""Reference solution for positional-table: interleaved sin/cos table and scaled embeddings."""

import math

import torch


def positional_encoding(max_len, d_model):
    """Sinusoidal float32 table (max_len, d_model): sin in even columns, cos in odd ones."""
    if max_len < 1:
        raise ValueError(f"max_len must be at least 1, got {max_len}")
    if d_model < 2 or d_model % 2:
        raise ValueError(f"d_model must be even and >= 2 (sin/cos pairs), got {d_model}")
    pos = torch.arange(max_len, dtype=torch.float64)[:, None]  # (max_len, 1)
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64)  # (d_model/2,): 0, 2, 4, ...
    angles = pos / 10000.0 ** (two_i / d_model)  # (max_len, d_model/2)
    P = torch.empty(max_len, d_model, dtype=torch.float64)
    P[:, 0::2] = torch.sin(angles)
    P[:, 1::2] = torch.cos(angles)
    return P.float()  # computed in float64, returned as float32


def add_positions(X):
    """X (B, T, d_model) -> X * sqrt(d_model) + P[:T], broadcast over the batch."""
    B, T, d_model = X.shape
    return X * math.sqrt(d_model) + positional_encoding(T, d_model).to(X.dtype)
