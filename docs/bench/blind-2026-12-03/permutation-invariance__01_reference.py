import math

import torch


def _first(out):
    return out[0] if isinstance(out, (tuple, list)) else out


def is_permutation_equivariant(layer, x, perm, atol=1e-5):
    """True when layer(x[:, perm]) equals layer(x)[:, perm] within atol."""
    perm = torch.as_tensor(perm, dtype=torch.long)
    with torch.no_grad():
        y = _first(layer(x))
        y_perm_in = _first(layer(x[:, perm]))
    return bool(torch.allclose(y_perm_in, y[:, perm], atol=atol, rtol=0))


def sinusoidal_positional_encoding(seq_len, d_model):
    """Table (seq_len, d_model): sin in even columns, cos in odd columns."""
    if d_model % 2 != 0:
        raise ValueError(f"d_model must be even, got {d_model}")
    pos = torch.arange(seq_len, dtype=torch.float64).unsqueeze(1)          # (seq_len, 1)
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64)               # (d_model/2,)
    freq = torch.exp(-math.log(10000.0) * two_i / d_model)
    P = torch.zeros(seq_len, d_model, dtype=torch.float64)
    P[:, 0::2] = torch.sin(pos * freq)
    P[:, 1::2] = torch.cos(pos * freq)
    return P.float()
