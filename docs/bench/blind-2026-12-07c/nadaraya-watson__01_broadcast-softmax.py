"""Nadaraya-Watson kernel regression as attention pooling."""

import torch


def nw_predict(x_query, x_keys, y_values, w=1.0):
    """Return (pred (n,), attention (n, m)) of Gaussian-kernel attention pooling."""
    if x_query.dim() != 1 or x_keys.dim() != 1 or y_values.dim() != 1:
        raise ValueError("x_query, x_keys and y_values must all be 1-D")
    if x_keys.shape[0] != y_values.shape[0]:
        raise ValueError(f"{x_keys.shape[0]} keys but {y_values.shape[0]} values")
    diff = x_query.unsqueeze(1) - x_keys.unsqueeze(0)  # (n, m)
    attention = torch.softmax(-0.5 * (diff * w) ** 2, dim=1)
    return attention @ y_values, attention
