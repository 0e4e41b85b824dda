import math

import torch


def _first(out):
    # layers such as nn.MultiheadAttention return (output, weights)
    return out[0] if isinstance(out, (tuple, list)) else out


def is_permutation_equivariant(layer, x, perm, atol=1e-5):
    """True when layer(x[:, perm]) equals layer(x)[:, perm] within atol."""
    perm = torch.as_tensor(perm, dtype=torch.long, device=x.device)
    with torch.no_grad():
        y = _first(layer(x))
        y_perm = _first(layer(x[:, perm]))
    return bool(torch.allclose(y_perm, y[:, perm], rtol=0, atol=atol))


def sinusoidal_positional_encoding(seq_len, d_model):
    """Table (seq_len, d_model): sin in even columns, cos in odd columns."""
    if d_model % 2 != 0:
        raise ValueError(f"d_model must be even for sin/cos pairs, got {d_model}")
    pos = torch.arange(seq_len, dtype=torch.float64).unsqueeze(1)  # (seq_len, 1)
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64)  # 0, 2, 4, ...
    freq = 1.0 / (10000.0 ** (two_i / d_model))  # (d_model // 2,)
    P = torch.zeros(seq_len, d_model, dtype=torch.float64)
    P[:, 0::2] = torch.sin(pos * freq)
    P[:, 1::2] = torch.cos(pos * freq)
    return P.float()
