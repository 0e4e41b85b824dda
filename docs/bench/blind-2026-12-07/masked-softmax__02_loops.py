"""Masked softmax with explicit loops over the batch rows and queries (small inputs anyway)."""

import torch


def masked_softmax(X, valid_lens=None):
    """Softmax over the last axis of X (B, n, m); key j of query (b, i) is hidden when
    j >= its valid length (valid_lens: None, (B,) or (B, n))."""
    if len(X.shape) != 3:
        raise ValueError("masked_softmax expects X of shape (B, n, m)")
    if valid_lens is None:
        return torch.softmax(X, dim=-1)
    B, n, m = X.shape
    if valid_lens.ndim == 1 and valid_lens.shape[0] == B:
        per_query = [[int(valid_lens[b])] * n for b in range(B)]
    elif valid_lens.ndim == 2 and valid_lens.shape[0] == B and valid_lens.shape[1] == n:
        per_query = valid_lens.tolist()
    else:
        raise ValueError(f"valid_lens of shape {tuple(valid_lens.shape)} does not fit X {tuple(X.shape)}")

    scores = X.clone()
    for b in range(B):
        for i in range(n):
            scores[b, i, per_query[b][i]:] = -1e6
    return torch.softmax(scores, dim=-1)
