import torch


def nw_predict(x_query, x_keys, y_values, w=1.0):
    """Return (pred (n,), attention (n, m)) of Gaussian-kernel attention pooling."""
    if x_query.dim() != 1 or x_keys.dim() != 1 or y_values.dim() != 1:
        raise ValueError("inputs must be 1-D tensors")
    if x_query.shape != x_keys.shape or x_keys.shape != y_values.shape:
        raise ValueError("x_query, x_keys and y_values must have the same shape")
    diff = x_query[:, None] - x_keys[None, :]
    attention = torch.softmax(-0.5 * (diff * w) ** 2, dim=-1)
    return attention @ y_values, attention
