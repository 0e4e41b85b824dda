import torch


def masked_softmax(X, valid_lens=None):
    if X.ndim != 3:
        raise ValueError("X should be (B, n, m)")
    if valid_lens is None:
        return torch.softmax(X, dim=-1)
    B, n, m = X.shape
    if valid_lens.ndim == 1:
        if valid_lens.numel() != B:
            raise ValueError("valid_lens (B,) does not match the batch")
        lens = valid_lens[:, None].expand(B, n)
    elif valid_lens.ndim == 2:
        if valid_lens.shape != (B, n):
            raise ValueError("valid_lens (B, n) does not match X")
        lens = valid_lens
    else:
        raise ValueError("valid_lens has too many dimensions")
    keys = torch.arange(m, device=X.device)
    visible = keys.view(1, 1, m) < lens.unsqueeze(-1)        # (B, n, m)
    filled = torch.where(visible, X, torch.full_like(X, -1e6))
    return filled.softmax(dim=-1)
