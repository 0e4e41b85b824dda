"""带有效长度的掩码 softmax：广播比较，一次生成整个掩码。"""

import torch


def masked_softmax(X, valid_lens=None):
    """Softmax over the last axis of X (B, n, m); key j of query (b, i) is hidden when
    j >= its valid length (valid_lens: None, (B,) or (B, n))."""
    if X.ndim != 3:
        raise ValueError("X 必须是三维张量 (B, n, m)")
    if valid_lens is None:
        return X.softmax(dim=-1)
    B, n, m = X.shape
    if valid_lens.ndim == 1:
        if valid_lens.numel() != B:
            raise ValueError("一维 valid_lens 的长度必须等于 B")
        lens = valid_lens.unsqueeze(1).expand(B, n)      # 每个查询共用这一行的长度
    elif valid_lens.ndim == 2:
        if valid_lens.shape != (B, n):
            raise ValueError("二维 valid_lens 的形状必须是 (B, n)")
        lens = valid_lens
    else:
        raise ValueError("valid_lens 最多二维")
    # 键下标 j < 长度 才能看见
    visible = torch.arange(m, device=X.device).view(1, 1, m) < lens.unsqueeze(-1)
    filled = torch.where(visible, X, X.new_full((), -1e6))   # 新张量，不改 X
    return filled.softmax(dim=-1)
