import torch


def nw_predict(x_query, x_keys, y_values, w=1.0):
    """Return (pred (n,), attention (n, m)) of Gaussian-kernel attention pooling."""
    if x_query.dim() != 1 or x_keys.dim() != 1 or y_values.dim() != 1:
        raise ValueError("inputs must be 1-D")
    if x_keys.shape[0] != y_values.shape[0]:
        raise ValueError("x_keys and y_values must have the same length")
    n, m = x_query.shape[0], x_keys.shape[0]
    queries = x_query.repeat_interleave(m).reshape(n, m)
    keys = x_keys.repeat(n).reshape(n, m)
    scores = -((queries - keys) * w) ** 2 / 2
    attention = torch.nn.functional.softmax(scores, dim=0)
    return torch.matmul(attention, y_values), attention
