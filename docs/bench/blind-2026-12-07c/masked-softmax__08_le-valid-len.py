"""Starter for the masked-softmax exercise: fill in the TODOs (see the statement)."""

import torch


def masked_softmax(X, valid_lens=None):
    """Softmax over the last axis of X (B, n, m); key j of query (b, i) is hidden when
    j >= its valid length (valid_lens: None, (B,) or (B, n))."""
    if X.dim() != 3:
        raise ValueError("X must be 3-D")
    if valid_lens is None:
        return torch.softmax(X, dim=-1)
    B, n, m = X.shape
    if valid_lens.dim() == 1:
        if valid_lens.shape[0] != B:
            raise ValueError("valid_lens has the wrong length")
        lens = valid_lens.view(B, 1).expand(B, n)
    elif valid_lens.dim() == 2:
        if valid_lens.shape != (B, n):
            raise ValueError("valid_lens has the wrong shape")
        lens = valid_lens
    else:
        raise ValueError("valid_lens must be 1-D or 2-D")
    idx = torch.arange(m).view(1, 1, m)
    allowed = idx <= lens.unsqueeze(-1)  # keys up to the valid length
    return torch.softmax(X.masked_fill(~allowed, -1e6), dim=-1)
