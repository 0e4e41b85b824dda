"""Nadaraya–Watson kernel regression."""

import torch


def nw_predict(x_query, x_keys, y_values, w=1.0):
    """Return (pred (n,), attention (n, m)) of Gaussian-kernel attention pooling."""
    if len(x_keys) != len(y_values):
        raise ValueError("need exactly one y per x")
    d = x_query[:, None] - x_keys[None, :]
    attention = torch.softmax(-0.5 * (d * w) ** 2, dim=-1)
    return attention @ y_values, attention
