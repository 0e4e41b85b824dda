"""Known mistake for masked-softmax: a 1-D valid_lens spread over the queries with ``repeat``,
which tiles the batch ([a, b] -> [a, b, a, b]), where ``repeat_interleave`` gives each batch
row its own length for all of its queries ([a, a, b, b])."""

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
        lens = lens.repeat(n).reshape(B, n)  # mistake: tiles the batch instead of interleaving
    elif lens.dim() != 2 or tuple(lens.shape) != (B, n):
        raise ValueError(f"2-D valid_lens must have shape (B, n) = ({B}, {n})")
    keys = torch.arange(m)  # (m,)
    keep = keys[None, None, :] < lens[:, :, None]  # (B, n, m)
    return torch.softmax(X.masked_fill(~keep, FILL), dim=-1)
