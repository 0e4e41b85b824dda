"""Mistake global-max-shift: exp(S - S.max()) subtracts the whole tensor's maximum."""

import torch

FILL = -1e6  # large negative, so exp() of a hidden score is 0 next to any real score


def masked_softmax(X, valid_lens=None):
    """Softmax over the last axis of X (B, n, m), keys j >= valid length get weight 0."""
    if not isinstance(X, torch.Tensor) or X.dim() != 3:
        raise ValueError("X must be a 3-D tensor of shape (batch, queries, keys)")
    if valid_lens is None:
        e = torch.exp(X - X.max())  # mistake: the tensor's maximum, not each row's
        return e / e.sum(dim=-1, keepdim=True)
    B, n, m = X.shape
    lens = torch.as_tensor(valid_lens)
    if lens.dim() == 1:
        if lens.shape[0] != B:
            raise ValueError(f"1-D valid_lens needs one length per batch row ({B}), got {lens.shape[0]}")
        lens = lens[:, None].expand(B, n)  # (B, n): every query of a row shares its length
    elif lens.dim() == 2:
        if tuple(lens.shape) != (B, n):
            raise ValueError(f"2-D valid_lens must have shape (B, n) = ({B}, {n}), got {tuple(lens.shape)}")
    else:
        raise ValueError("valid_lens must be None, 1-D (B,) or 2-D (B, n)")
    keys = torch.arange(m)  # (m,)
    keep = keys[None, None, :] < lens[:, :, None]  # (B, n, m)
    S = X.masked_fill(~keep, FILL)
    e = torch.exp(S - S.max())  # mistake: the tensor's maximum, not each row's: rows far below it 0/0
    return e / e.sum(dim=-1, keepdim=True)
