"""带有效长度的掩码 softmax：用循环写，便于理解。"""

import torch


def masked_softmax(X, valid_lens=None):
    """Softmax over the last axis of X (B, n, m); key j of query (b, i) is hidden when
    j >= its valid length (valid_lens: None, (B,) or (B, n))."""
    if len(X.shape) != 3:
        raise ValueError("X 必须是三维张量 (B, n, m)")
    B, n, m = X.shape
    if valid_lens is None:
        lens = None
    elif valid_lens.dim() == 1:
        if len(valid_lens) != B:
            raise ValueError("一维 valid_lens 的长度必须等于 B")
        lens = [[int(valid_lens[b])] * n for b in range(B)]
    elif valid_lens.dim() == 2:
        if valid_lens.shape[0] != B or valid_lens.shape[1] != n:
            raise ValueError("二维 valid_lens 的形状必须是 (B, n)")
        lens = valid_lens.tolist()
    else:
        raise ValueError("valid_lens 只能是一维或二维")

    out = torch.empty_like(X)
    for b in range(B):
        for i in range(n):
            row = X[b, i].clone()          # 复制一份，不改动输入
            if lens is not None:
                row[lens[b][i]:] = -1e6    # 有效长度之后的键全部遮住
            # 数值稳定：先减去本行最大值再取指数
            e = torch.exp(row - row.max())
            out[b, i] = e / e.sum()
    return out
