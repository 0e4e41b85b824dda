"""Masked softmax with valid lengths."""

import torch


def masked_softmax(X, valid_lens=None):
    """Softmax over the last axis of X (B, n, m); key j of query (b, i) is hidden when
    j >= its valid length (valid_lens: None, (B,) or (B, n))."""
    if X.dim() != 3:
        raise ValueError(f"X must be 3-D (B, n, m), got shape {tuple(X.shape)}")
    if valid_lens is None:
        return torch.softmax(X, dim=-1)
    B, n, m = X.shape
    if valid_lens.dim() == 1:
        if valid_lens.shape[0] != B:
            raise ValueError(f"1-D valid_lens must have length {B}, got {valid_lens.shape[0]}")
        lens = valid_lens[:, None].expand(B, n)
    elif valid_lens.dim() == 2:
        if tuple(valid_lens.shape) != (B, n):
            raise ValueError(f"2-D valid_lens must have shape {(B, n)}, got {tuple(valid_lens.shape)}")
        lens = valid_lens
    else:
        raise ValueError("valid_lens must be 1-D or 2-D")
    keys = torch.arange(m, device=X.device)
    visible = keys[None, None, :] < lens[:, :, None]  # (B, n, m)
    return torch.softmax(X.masked_fill(~visible, -1e6), dim=-1)
