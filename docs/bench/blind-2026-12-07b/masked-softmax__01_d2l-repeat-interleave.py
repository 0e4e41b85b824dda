"""Starter for the masked-softmax exercise: fill in the TODOs (see the statement)."""

import torch


def _sequence_mask(X, valid_len, value=-1e6):
    """X is 2-D (rows, m); hide the entries at or past each row's valid length."""
    maxlen = X.size(1)
    mask = torch.arange(maxlen, dtype=torch.float32, device=X.device)[None, :] < valid_len[:, None]
    return X.masked_fill(~mask, value)


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
            raise ValueError(f"1-D valid_lens needs {B} entries, got {valid_lens.shape[0]}")
        lens = torch.repeat_interleave(valid_lens, n)
    elif valid_lens.dim() == 2:
        if tuple(valid_lens.shape) != (B, n):
            raise ValueError(f"2-D valid_lens must be {(B, n)}, got {tuple(valid_lens.shape)}")
        lens = valid_lens.reshape(-1)
    else:
        raise ValueError("valid_lens must be 1-D or 2-D")
    flat = _sequence_mask(X.reshape(-1, m), lens, value=-1e6)
    return torch.softmax(flat.reshape(B, n, m), dim=-1)
