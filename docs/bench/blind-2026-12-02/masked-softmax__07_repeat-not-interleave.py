import torch


def masked_softmax(X, valid_lens=None):
    if X.dim() != 3:
        raise ValueError("X must be 3-D")
    if valid_lens is None:
        return torch.softmax(X, dim=-1)
    shape = X.shape
    B, n, m = shape
    if valid_lens.dim() == 1:
        if valid_lens.shape[0] != B:
            raise ValueError("bad valid_lens length")
        valid_lens = valid_lens.repeat(n)
    elif valid_lens.dim() == 2:
        if tuple(valid_lens.shape) != (B, n):
            raise ValueError("bad valid_lens shape")
        valid_lens = valid_lens.reshape(-1)
    else:
        raise ValueError("valid_lens must be 1-D or 2-D")
    X2 = X.reshape(-1, m)
    mask = torch.arange(m)[None, :] < valid_lens[:, None]
    X2 = X2.masked_fill(~mask, -1e6)
    return torch.softmax(X2.reshape(shape), dim=-1)
