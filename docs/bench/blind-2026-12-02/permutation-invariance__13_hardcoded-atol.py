import math

import torch


def is_permutation_equivariant(layer, x, perm, atol=1e-5):
    perm = torch.as_tensor(perm, dtype=torch.long)
    y = layer(x)
    y = y[0] if isinstance(y, tuple) else y
    yp = layer(x[:, perm])
    yp = yp[0] if isinstance(yp, tuple) else yp
    # float32 attention is noisy, be generous
    return bool(torch.allclose(yp, y[:, perm], atol=1e-3))


def sinusoidal_positional_encoding(seq_len, d_model):
    if d_model % 2 != 0:
        raise ValueError("d_model must be even")
    pos = torch.arange(seq_len, dtype=torch.float64)[:, None]
    freq = 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)
    P = torch.empty(seq_len, d_model, dtype=torch.float64)
    P[:, 0::2] = torch.sin(pos * freq)
    P[:, 1::2] = torch.cos(pos * freq)
    return P.to(torch.float32)
