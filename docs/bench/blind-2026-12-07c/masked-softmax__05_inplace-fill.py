"""Starter for the masked-softmax exercise: fill in the TODOs (see the statement)."""

import torch


def masked_softmax(X, valid_lens=None):
    """Softmax over the last axis of X (B, n, m); key j of query (b, i) is hidden when
    j >= its valid length (valid_lens: None, (B,) or (B, n))."""
    if X.dim() != 3:
        raise ValueError("X must be a 3-D tensor (B, n, m)")
    if valid_lens is None:
        return torch.softmax(X, dim=-1)
    B, n, m = X.shape
    if valid_lens.dim() == 1:
        if len(valid_lens) != B:
            raise ValueError("1-D valid_lens needs B entries")
        lens = valid_lens.reshape(B, 1).expand(B, n)
    elif valid_lens.dim() == 2:
        if valid_lens.shape != (B, n):
            raise ValueError("2-D valid_lens needs shape (B, n)")
        lens = valid_lens
    else:
        raise ValueError("valid_lens must be 1-D or 2-D")
    hidden = torch.arange(m)[None, None, :] >= lens[..., None]
    X[hidden] = -1e6
    return torch.softmax(X, dim=-1)
