import math

import numpy as np
import torch

Q = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
K = Q.clone()
V = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]])

# 第一部分：用 numpy 手算
_q = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 1]], dtype=np.float64)
_v = np.array([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]], dtype=np.float64)
scores = _q @ _q.T / np.sqrt(4)                      # 3x3 分数矩阵
_e = np.exp(scores - scores.max(axis=1, keepdims=True))
weights = _e / _e.sum(axis=1, keepdims=True)          # 按行做 softmax
context = (weights @ _v)[0]                           # 第一个词元的上下文向量


# 第二部分：通用函数
def attention(Q, K, V, mask=None):
    """Return (context, weights) for Q (..., n, d_k), K (..., m, d_k), V (..., m, d_v)."""
    d_k = Q.shape[-1]
    s = Q @ K.transpose(-1, -2) / math.sqrt(d_k)
    if mask is not None:
        # 不能关注的位置设为 -inf，exp 之后正好是 0
        s = s.masked_fill(mask.logical_not(), -math.inf)
    # 先减去每行（可见位置的）最大值，防止 exp 溢出
    s = s - s.amax(dim=-1, keepdim=True)
    e = torch.exp(s)
    w = e / e.sum(dim=-1, keepdim=True)
    return w @ V, w
