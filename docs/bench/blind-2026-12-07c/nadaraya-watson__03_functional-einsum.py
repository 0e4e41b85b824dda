import torch
import torch.nn.functional as F


def nw_predict(x_query, x_keys, y_values, w=1.0):
    """Return (pred (n,), attention (n, m)) of Gaussian-kernel attention pooling."""
    if not (x_query.ndim == x_keys.ndim == y_values.ndim == 1):
        raise ValueError("all inputs must be 1-D tensors")
    if x_keys.numel() != y_values.numel():
        raise ValueError("x_keys and y_values must have the same length")
    w = torch.as_tensor(w, dtype=x_query.dtype)
    # (n, 1) - (1, m): every query against every key
    dist = x_query[:, None] - x_keys[None, :]
    logits = -0.5 * torch.square(dist * w)
    attention = F.softmax(logits, dim=-1)
    pred = torch.einsum("nm,m->n", attention, y_values)
    return pred, attention
