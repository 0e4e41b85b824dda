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
    # works for odd widths too: the last column is a sine without its cosine
    pos = torch.arange(seq_len, dtype=torch.float64)[:, None]
    freq = 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)
    P = torch.zeros(seq_len, d_model, dtype=torch.float64)
    P[:, 0::2] = torch.sin(pos * freq)
    P[:, 1::2] = torch.cos(pos * freq[: d_model // 2])
    return P.float()
