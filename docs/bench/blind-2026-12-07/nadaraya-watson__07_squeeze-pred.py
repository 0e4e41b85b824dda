"""Nadaraya–Watson kernel regression (bmm like the book)."""

import torch


def nw_predict(x_query, x_keys, y_values, w=1.0):
    """Return (pred (n,), attention (n, m)) of Gaussian-kernel attention pooling."""
    if x_query.dim() != 1 or x_keys.dim() != 1 or y_values.dim() != 1:
        raise ValueError("inputs must be 1-D")
    if x_keys.shape[0] != y_values.shape[0]:
        raise ValueError("x_keys and y_values differ in length")
    n, m = len(x_query), len(x_keys)
    d = x_query.unsqueeze(1) - x_keys.unsqueeze(0)
    attention = torch.softmax(-0.5 * (d * w) ** 2, dim=1)
    pred = torch.bmm(attention.unsqueeze(1), y_values.repeat(n, 1).unsqueeze(-1)).squeeze()
    return pred, attention
