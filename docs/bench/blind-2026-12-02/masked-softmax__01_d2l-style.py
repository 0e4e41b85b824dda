"""Masked softmax, D2L style (flatten, sequence mask, reshape)."""

import torch


def _sequence_mask(X, valid_len, value=-1e6):
    # X: (N, m), valid_len: (N,)
    maxlen = X.size(1)
    mask = torch.arange(maxlen, dtype=torch.float32, device=X.device)[None, :] < valid_len[:, None]
    return X.masked_fill(~mask, value)


def masked_softmax(X, valid_lens=None):
    if X.dim() != 3:
        raise ValueError(f"X must be 3-D (B, n, m), got shape {tuple(X.shape)}")
    if valid_lens is None:
        return torch.softmax(X, dim=-1)
    B, n, m = X.shape
    if valid_lens.dim() == 1:
        if valid_lens.shape[0] != B:
            raise ValueError("1-D valid_lens must have length B")
        valid_lens = torch.repeat_interleave(valid_lens, n)
    elif valid_lens.dim() == 2:
        if tuple(valid_lens.shape) != (B, n):
            raise ValueError("2-D valid_lens must have shape (B, n)")
        valid_lens = valid_lens.reshape(-1)
    else:
        raise ValueError("valid_lens must be 1-D or 2-D")
    Xm = _sequence_mask(X.reshape(-1, m), valid_lens)
    return torch.softmax(Xm.reshape(B, n, m), dim=-1)
