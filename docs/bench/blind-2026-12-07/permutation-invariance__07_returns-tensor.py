import math

import torch


def is_permutation_equivariant(layer, x, perm, atol=1e-5):
    """True when layer(x[:, perm]) equals layer(x)[:, perm] within atol."""
    perm = torch.as_tensor(perm, dtype=torch.long)
    a = layer(x[:, perm])
    b = layer(x)
    if isinstance(a, tuple):
        a, b = a[0], b[0]
    return (a - b[:, perm]).abs().max() <= atol


def sinusoidal_positional_encoding(seq_len, d_model):
    """Table (seq_len, d_model): sin in even columns, cos in odd columns."""
    if d_model % 2 != 0:
        raise ValueError("d_model must be even")
    pos = torch.arange(seq_len, dtype=torch.float64)[:, None]
    freq = 1.0 / 10000 ** (torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)
    P = torch.zeros(seq_len, d_model, dtype=torch.float64)
    P[:, 0::2] = torch.sin(pos * freq)
    P[:, 1::2] = torch.cos(pos * freq)
    return P.float()
