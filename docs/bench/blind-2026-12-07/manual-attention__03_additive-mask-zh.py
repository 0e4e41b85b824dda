import math

import torch

Q = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
K = Q.clone()
V = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]])

# A 部分：直接用 torch 算（和手算结果核对过）
scores = Q @ K.T / math.sqrt(4)                 # 3×3
weights = torch.softmax(scores, dim=1)          # 按行做 softmax
context = (weights @ V)[0]                      # 第一个词元的上下文向量


# B 部分
def attention(Q, K, V, mask=None):
    """Return (context, weights) for Q (..., n, d_k), K (..., m, d_k), V (..., m, d_v)."""
    d_k = Q.shape[-1]
    s = Q @ K.transpose(-2, -1) * d_k ** -0.5
    if mask is not None:
        # 论文笔记里的写法：加性掩码，能看的位置加 0，不能看的加 -inf
        additive = torch.zeros(mask.shape, dtype=s.dtype).masked_fill(~mask, float("-inf"))
        s = s + additive
    w = s.softmax(dim=-1)
    return w @ V, w
