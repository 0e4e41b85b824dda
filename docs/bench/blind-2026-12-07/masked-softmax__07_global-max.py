"""Masked softmax, softmax written out by hand (max-subtracted for stability)."""

import torch


def masked_softmax(X, valid_lens=None):
    """Softmax over the last axis of X (B, n, m); key j of query (b, i) is hidden when
    j >= its valid length (valid_lens: None, (B,) or (B, n))."""
    if X.dim() != 3:
        raise ValueError("X must be 3-D")
    B, n, m = X.shape
    if valid_lens is None:
        lens = torch.full((B, n), m)
    elif valid_lens.dim() == 1:
        if valid_lens.shape[0] != B:
            raise ValueError("valid_lens must have length B")
        lens = valid_lens[:, None].expand(B, n)
    elif valid_lens.dim() == 2:
        if valid_lens.shape != (B, n):
            raise ValueError("valid_lens must have shape (B, n)")
        lens = valid_lens
    else:
        raise ValueError("valid_lens must be 1-D or 2-D")
    mask = torch.arange(m)[None, None, :] < lens[:, :, None]
    S = X.masked_fill(~mask, -1e6)
    e = torch.exp(S - S.max())
    return e / e.sum(dim=-1, keepdim=True)
