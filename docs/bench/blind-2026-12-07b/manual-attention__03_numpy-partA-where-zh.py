import math

import numpy as np
import torch

Q = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
K = Q.clone()
V = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]])

# 第一部分：用 numpy 验算手算结果
_q = Q.numpy().astype(np.float64)
_v = V.numpy().astype(np.float64)
scores = _q @ _q.T / np.sqrt(4.0)                      # 3x3
_e = np.exp(scores - scores.max(axis=1, keepdims=True))
weights = _e / _e.sum(axis=1, keepdims=True)           # 按行做 softmax
context = (weights @ _v)[0]                            # 第一个词元的上下文向量


# 第二部分：通用函数
def attention(Q, K, V, mask=None):
    """Return (context, weights) for Q (..., n, d_k), K (..., m, d_k), V (..., m, d_v)."""
    d_k = Q.shape[-1]
    scale = 1.0 / math.sqrt(d_k)
    s = (Q * scale) @ K.transpose(-1, -2)              # (..., n, m)
    if mask is not None:
        # True = 可以关注；其余位置填 -inf，softmax 后权重恰好为 0
        neg = torch.tensor(float("-inf"), dtype=s.dtype, device=s.device)
        s = torch.where(mask, s, neg)
    w = s.softmax(dim=-1)                              # 对 m 个键做 softmax
    return w @ V, w
