import math

import torch


def is_permutation_equivariant(layer, x, perm, atol=1e-5):
    perm = torch.as_tensor(perm, dtype=torch.long)
    y = layer(x)
    y = y[0] if isinstance(y, tuple) else y
    yp = layer(x[:, perm])
    yp = yp[0] if isinstance(yp, tuple) else yp
    return bool(torch.allclose(yp, y[:, perm], atol=atol, rtol=0))


def sinusoidal_positional_encoding(seq_len, d_model):
    if d_model % 2 != 0:
        raise ValueError("d_model must be even")
    P = torch.zeros(seq_len, d_model, dtype=torch.float64)
    pos = torch.arange(seq_len, dtype=torch.float64)
    for j in range(d_model):
        angle = pos / 10000 ** (j / d_model)
        P[:, j] = torch.sin(angle) if j % 2 == 0 else torch.cos(angle)
    return P.float()
