
import math

import torch


def is_permutation_equivariant(layer, x, perm, atol=1e-5):
    """True when layer(x[:, perm]) equals layer(x)[:, perm] within atol."""
    out = layer(x)
    if isinstance(out, tuple):
        out = out[0]
    out_perm = layer(x[:, perm])
    if isinstance(out_perm, tuple):
        out_perm = out_perm[0]
    return bool(torch.allclose(out_perm, out[:, perm], atol=atol, rtol=0))


def sinusoidal_positional_encoding(seq_len, d_model):
    """Table (seq_len, d_model): sin in even columns, cos in odd columns."""
    if d_model % 2 != 0:
        raise ValueError(f"d_model must be even to pair sines and cosines, got {d_model}")
    pos = torch.arange(seq_len, dtype=torch.float64).unsqueeze(1)          # (seq_len, 1)
    freq = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float64) * (-math.log(10000.0) / d_model))
    P = torch.zeros(seq_len, d_model, dtype=torch.float64)
    P[:, 0::2] = torch.sin(pos * freq)
    P[:, 1::2] = torch.cos(pos * freq)
    return P.float()
