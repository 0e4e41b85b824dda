import torch
from torch.nn import functional as F


def masked_softmax(X, valid_lens=None):
    """Softmax over the last axis of X (B, n, m); key j of query (b, i) is hidden when
    j >= its valid length (valid_lens: None, (B,) or (B, n))."""
    if X.dim() != 3:
        raise ValueError("X must be 3-D (B, n, m)")
    if valid_lens is None:
        return F.softmax(X, dim=-1)
    B, n, m = X.shape
    if valid_lens.dim() == 1:
        if valid_lens.shape[0] != B:
            raise ValueError("1-D valid_lens must have length B")
        # one length per query: repeat the batch lengths n times
        lens = valid_lens.repeat(n).reshape(B, n)
    elif valid_lens.dim() == 2:
        if valid_lens.shape != (B, n):
            raise ValueError("2-D valid_lens must have shape (B, n)")
        lens = valid_lens
    else:
        raise ValueError("valid_lens must be 1-D or 2-D")
    mask = torch.arange(m)[None, None, :] < lens[:, :, None]
    return F.softmax(X.masked_fill(~mask, -1e6), dim=-1)
