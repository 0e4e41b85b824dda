import math

import torch


def is_permutation_equivariant(layer, x, perm, atol=1e-5):
    # perm 可能是 list，也可能是 LongTensor
    if isinstance(perm, torch.Tensor):
        idx = perm.long()
    else:
        idx = torch.tensor(list(perm), dtype=torch.long)
    with torch.no_grad():
        out1 = layer(x)
        out2 = layer(x[:, idx, :])
    if isinstance(out1, tuple):
        out1 = out1[0]
    if isinstance(out2, tuple):
        out2 = out2[0]
    expected = out1[:, idx, :]            # 先算再打乱
    if expected.shape != out2.shape:
        return False
    diff = (out2 - expected).abs().max().item()
    print("max diff:", diff)
    return diff <= atol


def sinusoidal_positional_encoding(seq_len, d_model):
    if d_model % 2 == 1:
        raise ValueError("d_model 必须是偶数")
    P = torch.zeros(seq_len, d_model)
    for pos in range(seq_len):
        for i in range(d_model // 2):
            angle = pos / (10000 ** (2 * i / d_model))
            P[pos, 2 * i] = math.sin(angle)
            P[pos, 2 * i + 1] = math.cos(angle)
    return P
