import math

import torch


def _out(y):
    return y[0] if isinstance(y, tuple) else y


def is_permutation_equivariant(layer, x, perm, atol=1e-5):
    perm = torch.as_tensor(perm, dtype=torch.long)
    inv = torch.argsort(perm)          # undo the shuffle on the output
    y = _out(layer(x))
    y_shuffled = _out(layer(x[:, perm]))
    return bool(torch.allclose(y_shuffled, y[:, inv], atol=atol, rtol=0))


def sinusoidal_positional_encoding(seq_len, d_model):
    if d_model % 2 != 0:
        raise ValueError("d_model must be even")
    pos = torch.arange(seq_len, dtype=torch.float64)[:, None]
    freq = 1.0 / torch.pow(10000.0, torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)
    P = torch.zeros(seq_len, d_model, dtype=torch.float64)
    P[:, 0::2] = torch.sin(pos * freq)
    P[:, 1::2] = torch.cos(pos * freq)
    return P.float()
