import math

import torch


def is_permutation_equivariant(layer, x, perm, atol=1e-5):
    perm = torch.tensor(perm) if not torch.is_tensor(perm) else perm
    res = layer(x)
    base = res[0] if isinstance(res, tuple) else res
    res_p = layer(x.index_select(1, perm))
    shuffled = res_p[0] if isinstance(res_p, tuple) else res_p
    # undo the shuffle on the permuted run instead of shuffling the base run
    inv = torch.empty_like(perm)
    inv[perm] = torch.arange(len(perm))
    unshuffled = shuffled.index_select(1, inv)
    return bool(((unshuffled - base).abs() <= atol).all())


def sinusoidal_positional_encoding(seq_len, d_model):
    if d_model % 2:
        raise ValueError("d_model must be even for the sin/cos pairs")
    position = torch.arange(seq_len).float().unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
    pe = torch.zeros(seq_len, d_model)
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term)
    return pe
