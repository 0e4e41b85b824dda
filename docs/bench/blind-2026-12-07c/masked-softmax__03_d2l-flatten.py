import torch
from torch.nn import functional as F


def sequence_mask(X, valid_len, value=0.0):
    """Copy of X (N, m) where the items past valid_len (N,) of every row are set to value."""
    maxlen = X.size(1)
    mask = torch.arange(maxlen, dtype=torch.float32, device=X.device)[None, :] < valid_len[:, None]
    out = X.clone()
    out[~mask] = value
    return out


def masked_softmax(X, valid_lens=None):
    """Softmax over the last axis of X (B, n, m); key j of query (b, i) is hidden when
    j >= its valid length (valid_lens: None, (B,) or (B, n))."""
    if X.ndim != 3:
        raise ValueError("masked_softmax expects X of shape (B, n, m)")
    if valid_lens is None:
        return F.softmax(X, dim=-1)
    shape = X.shape
    if valid_lens.dim() == 1:
        if valid_lens.numel() != shape[0]:
            raise ValueError("need one valid length per batch row")
        valid_lens = torch.repeat_interleave(valid_lens, shape[1])
    elif valid_lens.dim() == 2:
        if valid_lens.shape != shape[:2]:
            raise ValueError("need one valid length per query, shape (B, n)")
        valid_lens = valid_lens.reshape(-1)
    else:
        raise ValueError("valid_lens must be 1-D or 2-D")
    X = sequence_mask(X.reshape(-1, shape[-1]), valid_lens, value=-1e6)
    return F.softmax(X.reshape(shape), dim=-1)
