"""Known mistake for masked-softmax: the valid lengths compared with the query index (rows),
so whole rows are hidden instead of the keys (columns) j >= valid length."""

import torch

FILL = -1e6  # large negative, so exp() of a hidden score is 0 next to any real score


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
        lens = lens[:, None].expand(B, n)
    elif lens.dim() != 2 or tuple(lens.shape) != (B, n):
        raise ValueError(f"2-D valid_lens must have shape (B, n) = ({B}, {n})")
    rows = torch.arange(n)  # mistake: the query index, not the key index
    keep = rows[None, :, None] < lens[:, :, None]  # (B, n, 1): whole rows kept or hidden
    return torch.softmax(X.masked_fill(~keep, FILL), dim=-1)
