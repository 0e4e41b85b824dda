import torch


def masked_softmax(X, valid_lens=None):
    """按最后一维做 softmax；超出有效长度的键权重为 0。"""
    # 检查输入维度
    if len(X.shape) != 3:
        raise ValueError("X 必须是三维张量 (B, n, m)")
    if valid_lens is None:
        return torch.softmax(X, dim=-1)

    B, n, m = X.shape
    if valid_lens.ndim > 2:
        raise ValueError("valid_lens 最多是二维")
    if valid_lens.ndim == 1 and valid_lens.shape != (B,):
        raise ValueError("一维 valid_lens 的长度必须等于 B")
    if valid_lens.ndim == 2 and valid_lens.shape != (B, n):
        raise ValueError("二维 valid_lens 的形状必须是 (B, n)")

    scores = X.clone()  # 不能原地修改输入
    for b in range(B):
        for i in range(n):
            if valid_lens.ndim == 1:
                L = int(valid_lens[b])
            else:
                L = int(valid_lens[b, i])
            scores[b, i, L:] = -1e6  # 填充位置换成很大的负数
    return torch.softmax(scores, dim=-1)
