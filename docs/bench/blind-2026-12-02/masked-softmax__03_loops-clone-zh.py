import torch

# 用循环写的版本，慢一点但容易看懂


def masked_softmax(X, valid_lens=None):
    if len(X.shape) != 3:
        raise ValueError("X 必须是三维张量")
    if valid_lens is None:
        return torch.nn.functional.softmax(X, dim=-1)
    B, n, m = X.shape
    if valid_lens.dim() > 2:
        raise ValueError("valid_lens 最多二维")
    if valid_lens.dim() == 1 and valid_lens.shape[0] != B:
        raise ValueError("一维 valid_lens 的长度必须等于 B")
    if valid_lens.dim() == 2 and list(valid_lens.shape) != [B, n]:
        raise ValueError("二维 valid_lens 的形状必须是 (B, n)")
    Y = X.clone()          # 不要原地修改 X
    for b in range(B):
        for i in range(n):
            if valid_lens.dim() == 1:
                L = int(valid_lens[b])
            else:
                L = int(valid_lens[b, i])
            Y[b, i, L:] = -1e6
    return torch.softmax(Y, dim=-1)
