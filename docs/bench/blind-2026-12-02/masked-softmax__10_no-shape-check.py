import torch


def masked_softmax(X, valid_lens=None):
    if X.dim() != 3:
        raise ValueError("X must be 3-D")
    if valid_lens is None:
        return torch.softmax(X, dim=-1)
    B, n, m = X.shape
    if valid_lens.dim() == 1:
        lens = valid_lens[:, None, None]           # (B, 1, 1)
    elif valid_lens.dim() == 2:
        lens = valid_lens[:, :, None]              # (B, n, 1)
    else:
        raise ValueError("valid_lens must be 1-D or 2-D")
    mask = torch.arange(m) < lens
    return torch.softmax(X.masked_fill(~mask, -1e6), dim=-1)
