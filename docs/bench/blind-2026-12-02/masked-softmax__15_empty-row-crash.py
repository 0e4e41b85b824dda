import torch


def masked_softmax(X, valid_lens=None):
    if X.dim() != 3:
        raise ValueError("X must be 3-D")
    B, n, m = X.shape
    if valid_lens is None:
        lens = torch.full((B, n), m)
    elif valid_lens.dim() == 1:
        if valid_lens.shape[0] != B:
            raise ValueError("bad valid_lens length")
        lens = valid_lens[:, None].expand(B, n)
    elif valid_lens.dim() == 2:
        if tuple(valid_lens.shape) != (B, n):
            raise ValueError("bad valid_lens shape")
        lens = valid_lens
    else:
        raise ValueError("valid_lens must be 1-D or 2-D")
    out = torch.zeros_like(X)
    for b in range(B):
        for i in range(n):
            L = int(lens[b, i])
            row = X[b, i, :L]
            e = torch.exp(row - row.max())      # stable softmax over the visible keys
            out[b, i, :L] = e / e.sum()
    return out
