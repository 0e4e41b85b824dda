import torch


def masked_softmax(X, valid_lens=None):
    """D2L-style masked softmax."""
    if X.dim() != 3:
        raise ValueError("X must be 3-D")
    if valid_lens is None:
        return torch.softmax(X, dim=-1)
    B, n, m = X.shape
    if valid_lens.dim() == 1:
        lens = valid_lens.reshape(-1, 1, 1)              # (B, 1, 1)
    else:
        lens = valid_lens.reshape(valid_lens.shape[0], -1, 1)   # (B, n, 1)
    mask = torch.arange(m).reshape(1, 1, m) < lens
    return torch.softmax(X.masked_fill(~mask, -1e6), dim=-1)
