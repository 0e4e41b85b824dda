"""Nadaraya–Watson in the D2L way: repeat the queries into an (n, m) grid, then bmm."""

import torch


def nw_predict(x_query, x_keys, y_values, w=1.0):
    """Return (pred (n,), attention (n, m)) of Gaussian-kernel attention pooling."""
    if not (x_query.dim() == x_keys.dim() == y_values.dim() == 1):
        raise ValueError("all inputs must be 1-D tensors")
    if x_keys.numel() != y_values.numel():
        raise ValueError("x_keys and y_values must have the same length")
    n, m = x_query.shape[0], x_keys.shape[0]
    queries = x_query.repeat_interleave(m).reshape(n, m)    # row i = x_query[i] repeated
    keys = x_keys.expand(n, m)
    attention = torch.nn.functional.softmax(-((queries - keys) * w) ** 2 / 2, dim=1)
    pred = torch.bmm(attention.unsqueeze(1), y_values.expand(n, m).unsqueeze(-1)).reshape(-1)
    return pred, attention
