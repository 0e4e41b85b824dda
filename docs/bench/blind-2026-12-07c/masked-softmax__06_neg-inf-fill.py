import math

import torch


def masked_softmax(X, valid_lens=None):
    """Softmax over the last axis of X (B, n, m); key j of query (b, i) is hidden when
    j >= its valid length (valid_lens: None, (B,) or (B, n))."""
    if X.ndim != 3:
        raise ValueError("expected X with 3 dimensions (B, n, m)")
    if valid_lens is None:
        return torch.softmax(X, dim=-1)
    B, n, m = X.shape
    if valid_lens.ndim == 1:
        if valid_lens.shape != (B,):
            raise ValueError("valid_lens (1-D) must have shape (B,)")
        valid_lens = valid_lens[:, None].expand(B, n)
    elif valid_lens.ndim == 2:
        if valid_lens.shape != (B, n):
            raise ValueError("valid_lens (2-D) must have shape (B, n)")
    else:
        raise ValueError("valid_lens must have 1 or 2 dimensions")
    pos = torch.arange(m, device=X.device).expand(B, n, m)
    keep = pos < valid_lens.unsqueeze(-1)
    # padded keys: minus infinity, so exp gives exactly 0
    scores = torch.where(keep, X, torch.full_like(X, -math.inf))
    return torch.softmax(scores, dim=-1)
