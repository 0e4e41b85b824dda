import math

import torch


def is_permutation_equivariant(layer, x, perm, atol=1e-5):
    """True when layer(x[:, perm]) equals layer(x)[:, perm] within atol."""
    perm = torch.as_tensor(perm, dtype=torch.long)
    out = layer(x)
    out_p = layer(x[:, perm])
    if isinstance(out, tuple):
        out, out_p = out[0], out_p[0]
    return bool(torch.allclose(out_p, out[:, perm], rtol=0.0, atol=atol))


def sinusoidal_positional_encoding(seq_len, d_model):
    """Table (seq_len, d_model): sin in even columns, cos in odd columns."""
    if d_model % 2 != 0:
        raise ValueError("d_model must be even")
    pos = torch.arange(seq_len, dtype=torch.float64)[:, None]
    freqs = 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)
    angles = pos * freqs  # (seq_len, d_model // 2)
    P = torch.empty(seq_len, d_model, dtype=torch.float64)
    P[:, 0::2] = torch.cos(angles)
    P[:, 1::2] = torch.sin(angles)
    return P.float()
