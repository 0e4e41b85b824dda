"""Nadaraya–Watson regression, one query at a time, normalised with logsumexp."""

import torch


def nw_predict(x_query, x_keys, y_values, w=1.0):
    """Return (pred (n,), attention (n, m)) of Gaussian-kernel attention pooling."""
    if x_query.ndim != 1 or x_keys.ndim != 1 or y_values.ndim != 1:
        raise ValueError("x_query, x_keys and y_values must all be 1-D")
    if len(x_keys) != len(y_values):
        raise ValueError(f"{len(x_keys)} keys but {len(y_values)} values")
    rows = []
    for xq in x_query:
        logits = -0.5 * ((xq - x_keys) * w) ** 2           # (m,)
        rows.append(torch.exp(logits - torch.logsumexp(logits, dim=0)))
    attention = torch.stack(rows)                           # (n, m)
    pred = (attention * y_values).sum(dim=1)                # (n,)
    return pred, attention
