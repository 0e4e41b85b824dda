"""Known mistake for nadaraya-watson: average pooling, the query is ignored."""

import torch


def nw_predict(x_query, x_keys, y_values, w=1.0):
    """Return (pred (n,), attention (n, m)) of Gaussian-kernel attention pooling."""
    if x_query.dim() != 1 or x_keys.dim() != 1 or y_values.dim() != 1:
        raise ValueError("x_query, x_keys and y_values must all be 1-D tensors")
    if x_keys.shape[0] != y_values.shape[0]:
        raise ValueError("x_keys and y_values must have the same length (one y per x)")
    diff = x_query[:, None] - x_keys[None, :]  # (n, m)
    attention = torch.full_like(diff, 1.0 / diff.shape[1])  # (n, m)  mistake: ignores x
    return attention @ y_values, attention  # (n,), (n, m)
