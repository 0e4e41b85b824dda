import math

import torch


# 最朴素的写法：逐行循环，数值稳定的 softmax（先减最大值）
def masked_softmax(X, valid_lens=None):
    if len(X.shape) != 3:
        raise ValueError("X 必须是三维张量 (B, n, m)")
    B, n, m = X.shape
    if valid_lens is not None:
        if valid_lens.dim() == 1 and valid_lens.shape[0] != B:
            raise ValueError("一维 valid_lens 的长度必须等于 B")
        if valid_lens.dim() == 2 and tuple(valid_lens.shape) != (B, n):
            raise ValueError("二维 valid_lens 的形状必须是 (B, n)")
        if valid_lens.dim() > 2:
            raise ValueError("valid_lens 最多二维")
    out = torch.empty_like(X)
    for b in range(B):
        for i in range(n):
            if valid_lens is None:
                L = m
            elif valid_lens.dim() == 1:
                L = int(valid_lens[b])
            else:
                L = int(valid_lens[b, i])
            row = [float(X[b, i, j]) if j < L else -1e6 for j in range(m)]
            mx = max(row)
            ex = [math.exp(r - mx) for r in row]
            s = sum(ex)
            out[b, i] = torch.tensor([e / s for e in ex], dtype=torch.float64)
    return out
