import math

import torch


def is_permutation_equivariant(layer, x, perm, atol=1e-5):
    perm = [int(p) for p in perm]
    a = layer(x)
    a = a[0] if isinstance(a, tuple) else a
    b = layer(x[:, perm, :])
    b = b[0] if isinstance(b, tuple) else b
    a_perm = torch.stack([a[:, p, :] for p in perm], dim=1)
    ok = torch.allclose(b, a_perm, rtol=0.0, atol=atol)
    print("equivariant:", ok)
    return bool(ok)


def sinusoidal_positional_encoding(seq_len, d_model):
    if d_model % 2:
        raise ValueError("sinusoidal encoding needs an even d_model")
    P = torch.zeros(seq_len, d_model, dtype=torch.float32)
    for pos in range(seq_len):
        for i in range(d_model // 2):
            angle = pos / (10000 ** (2 * i / d_model))
            P[pos, 2 * i] = math.sin(angle)
            P[pos, 2 * i + 1] = math.cos(angle)
    return P
