"""Starter for the masked-softmax exercise: fill in the TODOs (see the statement)."""

import torch


def masked_softmax(X, valid_lens=None):
    """Softmax over the last axis of X (B, n, m); key j of query (b, i) is hidden when
    j >= its valid length (valid_lens: None, (B,) or (B, n))."""
    if X.ndim != 3:
        raise ValueError("X must have 3 dimensions: (batch, queries, keys)")
    if valid_lens is None:
        return torch.softmax(X, dim=-1)
    B, n, m = X.shape
    if valid_lens.ndim == 1:
        if valid_lens.shape != (B,):
            raise ValueError("1-D valid_lens must have one length per batch row")
        lens = valid_lens.unsqueeze(1).expand(B, n)
    elif valid_lens.ndim == 2:
        if valid_lens.shape != (B, n):
            raise ValueError("2-D valid_lens must have shape (B, n)")
        lens = valid_lens
    else:
        raise ValueError("valid_lens must be 1-D or 2-D")
    keys = torch.arange(m, device=X.device).view(1, 1, m)
    visible = keys < lens.unsqueeze(-1)  # (B, n, m)
    X = X.masked_fill(~visible, -1e6)  # new tensor, the caller's X is untouched
    return torch.softmax(X, dim=-1)
