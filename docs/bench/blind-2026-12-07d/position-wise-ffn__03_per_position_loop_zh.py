"""逐位置前馈网络：每个位置单独通过同一个两层网络。"""

import torch


def _dense(x, W, b):
    # x: (L, in), W: (in, out), b: (out,) -> b + x @ W
    return torch.addmm(b, x, W)


def position_wise_ffn(X, W1, b1, W2, b2):
    """Return max(0, X @ W1 + b1) @ W2 + b2, shape (B, n, d_model), for X of shape (B, n, d_model)."""
    outs = []
    for b in range(X.shape[0]):          # 逐个序列处理
        h = torch.relu(_dense(X[b], W1, b1))   # 先加偏置 b1，再 ReLU
        outs.append(_dense(h, W2, b2))         # 第二层后面没有激活函数
    return torch.stack(outs, dim=0)            # (B, n, d_model)
