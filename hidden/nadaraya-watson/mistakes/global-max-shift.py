"""Known mistake for nadaraya-watson: one maximum subtracted for the whole table, so a row far below it is 0/0."""

import torch


def nw_predict(x_query, x_keys, y_values, w=1.0):
    """Return (pred (n,), attention (n, m)) of Gaussian-kernel attention pooling."""
    if x_query.dim() != 1 or x_keys.dim() != 1 or y_values.dim() != 1:
        raise ValueError("x_query, x_keys and y_values must all be 1-D tensors")
    if x_keys.shape[0] != y_values.shape[0]:
        raise ValueError("x_keys and y_values must have the same length (one y per x)")
    diff = x_query[:, None] - x_keys[None, :]  # (n, m)
    s = -0.5 * (diff * w) ** 2
    e = torch.exp(s - s.max())  # mistake: the table's maximum, not each row's
    attention = e / e.sum(dim=-1, keepdim=True)  # (n, m), 0/0 = NaN in rows far below it
    return attention @ y_values, attention  # (n,), (n, m)
