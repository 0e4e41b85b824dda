import math

import torch


def is_permutation_equivariant(layer, x, perm, atol=1e-5):
    perm = list(perm) if not torch.is_tensor(perm) else perm.tolist()
    y = layer(x)
    y = y[0] if isinstance(y, tuple) else y
    yp = layer(x[:, perm])
    yp = yp[0] if isinstance(yp, tuple) else yp
    return torch.equal(yp, y[:, perm])


def sinusoidal_positional_encoding(seq_len, d_model):
    if d_model % 2 != 0:
        raise ValueError("d_model must be even")
    pos = torch.arange(seq_len, dtype=torch.float64)[:, None]
    freq = 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)
    P = torch.empty(seq_len, d_model, dtype=torch.float64)
    P[:, 0::2] = torch.sin(pos * freq)
    P[:, 1::2] = torch.cos(pos * freq)
    return P.to(torch.float32)
