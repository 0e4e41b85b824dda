import torch


def nw_predict(x_query, x_keys, y_values, w=1.0):
    """Return (pred (n,), attention (n, m)) of Gaussian-kernel attention pooling."""
    if x_query.dim() != 1 or x_keys.dim() != 1 or y_values.dim() != 1:
        raise ValueError("inputs must be 1-D")
    if x_keys.shape[0] != y_values.shape[0]:
        raise ValueError("x_keys and y_values must have the same length")
    d = x_query.reshape(-1, 1) - x_keys.reshape(1, -1)
    # K(x - x_i) / sum_j K(x - x_j), straight from the formula
    K = torch.exp(-0.5 * (d * w) ** 2)
    attention = K / K.sum(dim=1, keepdim=True)
    return attention @ y_values, attention
