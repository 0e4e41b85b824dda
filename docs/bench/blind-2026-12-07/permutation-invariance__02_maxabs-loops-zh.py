import math

import torch


def is_permutation_equivariant(layer, x, perm, atol=1e-5):
    """True when layer(x[:, perm]) equals layer(x)[:, perm] within atol."""
    idx = torch.tensor(list(perm), dtype=torch.long)   # list 或 LongTensor 都可以
    out = layer(x)
    out_perm = layer(x[:, idx])
    # 有的层（比如 nn.MultiheadAttention）返回 (输出, 权重)，只取第一个
    if isinstance(out, tuple):
        out, out_perm = out[0], out_perm[0]
    diff = (out_perm - out[:, idx]).abs().max().item()
    return diff <= atol


def sinusoidal_positional_encoding(seq_len, d_model):
    """Table (seq_len, d_model): sin in even columns, cos in odd columns."""
    if d_model % 2 == 1:
        raise ValueError("d_model 必须是偶数")
    rows = []
    for pos in range(seq_len):
        row = []
        for i in range(d_model // 2):
            angle = pos / (10000 ** (2 * i / d_model))
            row += [math.sin(angle), math.cos(angle)]      # 偶数列 sin，奇数列 cos
        rows.append(row)
    return torch.tensor(rows, dtype=torch.float32).reshape(seq_len, d_model)
