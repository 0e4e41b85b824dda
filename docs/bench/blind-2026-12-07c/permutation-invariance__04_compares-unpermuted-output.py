import math

import torch


def is_permutation_equivariant(layer, x, perm, atol=1e-5):
    """True when layer(x[:, perm]) equals layer(x)[:, perm] within atol."""
    perm = torch.as_tensor(perm, dtype=torch.long)
    original = layer(x)
    shuffled = layer(x[:, perm])
    if isinstance(original, tuple):
        original = original[0]
    if isinstance(shuffled, tuple):
        shuffled = shuffled[0]
    # self-attention should not care about the order of its inputs
    return bool(torch.allclose(shuffled, original, rtol=0.0, atol=atol))


def sinusoidal_positional_encoding(seq_len, d_model):
    """Table (seq_len, d_model): sin in even columns, cos in odd columns."""
    if d_model % 2 != 0:
        raise ValueError("d_model must be even")
    position = torch.arange(seq_len, dtype=torch.float64).unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float64) * (-math.log(10000.0) / d_model))
    P = torch.zeros(seq_len, d_model, dtype=torch.float64)
    P[:, 0::2] = torch.sin(position * div_term)
    P[:, 1::2] = torch.cos(position * div_term)
    return P.float()
