"""Starter for the positional-table exercise: fill in the TODOs (see the statement)."""

import math

import torch


def positional_encoding(max_len, d_model):
    """Sinusoidal float32 table (max_len, d_model): sin in even columns, cos in odd ones."""
    # TODO: raise ValueError for max_len < 1 or an odd / too small d_model.
    P = torch.zeros(max_len, d_model)
    # TODO: positions 0 .. max_len-1 as a column (max_len, 1), one frequency per column pair
    #       (d_model // 2,), then fill P[:, 0::2] with sines and P[:, 1::2] with cosines.
    return P


def add_positions(X):
    """X (B, T, d_model) -> X * sqrt(d_model) + P[:T]."""
    B, T, d_model = X.shape
    return X * math.sqrt(d_model) + positional_encoding(T, d_model).to(X.dtype)
