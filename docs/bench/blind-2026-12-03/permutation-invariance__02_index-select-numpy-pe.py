import numpy as np
import torch


def is_permutation_equivariant(layer, x, perm, atol=1e-5):
    if not torch.is_tensor(perm):
        perm = torch.tensor(list(perm), dtype=torch.long)
    out = layer(x)
    if isinstance(out, tuple):
        out = out[0]
    out_p = layer(torch.index_select(x, 1, perm))
    if isinstance(out_p, tuple):
        out_p = out_p[0]
    expected = torch.index_select(out, 1, perm)
    diff = (out_p - expected).abs().max().item()
    return diff <= atol


def sinusoidal_positional_encoding(seq_len, d_model):
    # 用 numpy 算表，再转成 float32 的 torch 张量
    if d_model % 2 == 1:
        raise ValueError("d_model 必须是偶数 (sin/cos 成对出现)")
    pos = np.arange(seq_len)[:, None]
    i = np.arange(d_model // 2)[None, :]
    angle = pos / np.power(10000.0, 2 * i / d_model)
    table = np.empty((seq_len, d_model))
    table[:, 0::2] = np.sin(angle)
    table[:, 1::2] = np.cos(angle)
    return torch.from_numpy(table).float()
