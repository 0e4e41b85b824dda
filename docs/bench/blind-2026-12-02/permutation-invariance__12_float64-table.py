import math

import numpy as np
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
    pos = np.arange(seq_len)[:, None]
    i = np.arange(d_model // 2)[None, :]
    angle = pos / np.power(10000, 2 * i / d_model)
    P = np.zeros((seq_len, d_model))
    P[:, 0::2] = np.sin(angle)
    P[:, 1::2] = np.cos(angle)
    return torch.from_numpy(P)
