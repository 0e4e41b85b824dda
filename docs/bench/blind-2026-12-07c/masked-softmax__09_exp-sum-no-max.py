import torch


def _softmax(S):
    e = torch.exp(S)
    return e / e.sum(dim=-1, keepdim=True)


def masked_softmax(X, valid_lens=None):
    """Softmax over the last axis of X (B, n, m); key j of query (b, i) is hidden when
    j >= its valid length (valid_lens: None, (B,) or (B, n))."""
    if X.dim() != 3:
        raise ValueError("X must be 3-D")
    if valid_lens is None:
        return _softmax(X)
    B, n, m = X.shape
    if valid_lens.dim() == 1:
        if valid_lens.shape[0] != B:
            raise ValueError("1-D valid_lens must have B entries")
        lens = valid_lens[:, None].expand(B, n)
    elif valid_lens.dim() == 2:
        if tuple(valid_lens.shape) != (B, n):
            raise ValueError("2-D valid_lens must be (B, n)")
        lens = valid_lens
    else:
        raise ValueError("valid_lens must be 1-D or 2-D")
    mask = torch.arange(m)[None, None, :] < lens[:, :, None]
    return _softmax(X.masked_fill(~mask, -1e6))
