import math

import torch


def is_permutation_equivariant(layer, x, perm, atol=1e-5):
    """True when layer(x[:, perm]) equals layer(x)[:, perm] within atol."""
    idx = [int(p) for p in perm]
    out_a = layer(x[:, idx])
    out_b = layer(x)
    if isinstance(out_a, tuple):
        out_a = out_a[0]
    if isinstance(out_b, tuple):
        out_b = out_b[0]
    out_b = out_b[:, idx]
    if out_a.shape != out_b.shape:
        return False
    biggest_gap = (out_a - out_b).abs().max().item()
    return biggest_gap <= atol


def sinusoidal_positional_encoding(seq_len, d_model):
    """Table (seq_len, d_model): sin in even columns, cos in odd columns."""
    if d_model % 2 == 1:
        raise ValueError("d_model has to be even (one sin and one cos per frequency)")
    table = []
    for pos in range(seq_len):
        row = []
        for i in range(d_model // 2):
            angle = pos / 10000 ** (2 * i / d_model)
            row.append(math.sin(angle))
            row.append(math.cos(angle))
        table.append(row)
    return torch.tensor(table, dtype=torch.float32).reshape(seq_len, d_model)
