"""Known mistake for masked-softmax: hidden scores filled with -inf, so a query with valid length 0 gets NaN."""

import torch


def masked_softmax(X, valid_lens=None):
    """Softmax over the last axis of X (B, n, m), keys j >= valid length get weight 0."""
    if not isinstance(X, torch.Tensor) or X.dim() != 3:
        raise ValueError("X must be a 3-D tensor of shape (batch, queries, keys)")
    if valid_lens is None:
        return torch.softmax(X, dim=-1)
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
    return torch.softmax(X.masked_fill(~keep, float("-inf")), dim=-1)  # mistake: NaN when L = 0
