"""Masked softmax, D2L style: flatten to (B*n, m), mask with a sequence mask, reshape back."""

import torch


def _sequence_mask(X, valid_len, value):
    """X (N, m), valid_len (N,): positions >= valid_len get `value` (X is copied first)."""
    maxlen = X.size(1)
    keep = torch.arange(maxlen, dtype=torch.float32, device=X.device)[None, :] < valid_len[:, None]
    X = X.clone()
    X[~keep] = value
    return X


def masked_softmax(X, valid_lens=None):
    """Softmax over the last axis of X (B, n, m); key j of query (b, i) is hidden when
    j >= its valid length (valid_lens: None, (B,) or (B, n))."""
    if X.dim() != 3:
        raise ValueError(f"X must be 3-D (B, n, m), got {X.dim()}-D")
    if valid_lens is None:
        return torch.softmax(X, dim=-1)
    B, n, m = X.shape
    if valid_lens.dim() == 1:
        if valid_lens.shape[0] != B:
            raise ValueError("1-D valid_lens must have one length per batch row")
        valid_lens = torch.repeat_interleave(valid_lens, n)
    elif valid_lens.dim() == 2:
        if tuple(valid_lens.shape) != (B, n):
            raise ValueError("2-D valid_lens must have shape (B, n)")
        valid_lens = valid_lens.reshape(-1)
    else:
        raise ValueError("valid_lens must be 1-D or 2-D")
    flat = _sequence_mask(X.reshape(-1, m), valid_lens, value=-1e6)
    return torch.softmax(flat.reshape(B, n, m), dim=-1)
