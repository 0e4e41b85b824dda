import torch


def masked_softmax(X, valid_lens=None):
    if X.dim() != 3:
        raise ValueError("X must be (B, n, m)")
    if valid_lens is None:
        return torch.softmax(X, dim=-1)
    B, n, m = X.shape
    key_idx = torch.arange(m)
    if valid_lens.dim() == 1:
        if len(valid_lens) != B:
            raise ValueError("need one valid length per batch row")
        mask = key_idx[None, None, :] < valid_lens[None, :, None]
    elif valid_lens.dim() == 2:
        if valid_lens.shape != (B, n):
            raise ValueError("2-D valid_lens must be (B, n)")
        mask = key_idx[None, None, :] < valid_lens[:, :, None]
    else:
        raise ValueError("valid_lens must be 1-D or 2-D")
    mask = mask.expand(B, n, m)
    return torch.softmax(X.masked_fill(~mask, -1e6), dim=-1)
