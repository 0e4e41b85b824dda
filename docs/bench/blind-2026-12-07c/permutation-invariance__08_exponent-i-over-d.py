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
    P = torch.zeros(seq_len, d_model)
    pos = torch.arange(seq_len, dtype=torch.float32).unsqueeze(1)
    i = torch.arange(d_model // 2, dtype=torch.float32)
    freq = 1.0 / torch.pow(10000.0, i / d_model)
    P[:, 0::2] = torch.sin(pos * freq)
    P[:, 1::2] = torch.cos(pos * freq)
    return P
