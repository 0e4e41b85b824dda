import torch


def masked_softmax(X, valid_lens=None):
    if X.dim() != 3:
        raise ValueError("X must be 3-D")
    if valid_lens is None:
        return torch.softmax(X, dim=-1)
    B, n, m = X.shape
    if valid_lens.dim() == 1:
        if valid_lens.shape[0] != B:
            raise ValueError("bad valid_lens length")
        lens = valid_lens.unsqueeze(1).expand(B, n)
    elif valid_lens.dim() == 2:
        if tuple(valid_lens.shape) != (B, n):
            raise ValueError("bad valid_lens shape")
        lens = valid_lens
    else:
        raise ValueError("valid_lens must be 1-D or 2-D")
    mask = torch.arange(m)[None, None, :] < lens[:, :, None]
    # zero out the padding
    return torch.softmax(X * mask, dim=-1)
