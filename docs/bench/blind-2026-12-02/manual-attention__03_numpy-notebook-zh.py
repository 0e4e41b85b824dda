import math

import numpy as np
import torch

Q = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
K = Q.clone()
V = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]])

# ---- A 部分：先用 numpy 算一遍 ----
q = Q.numpy()
k = K.numpy()
v = V.numpy()
s = q @ k.T / np.sqrt(4)          # 缩放点积
print("scores:\n", s)
e = np.exp(s - s.max(axis=1, keepdims=True))
w = e / e.sum(axis=1, keepdims=True)   # 按行 softmax
print("weights:\n", np.round(w, 4))
c = w @ v
print("context of token 0:", c[0])

scores = s
weights = w
context = c[0]


# ---- B 部分 ----
def my_softmax(x):
    # 减去最大值，防止溢出
    x = x - x.max(dim=-1, keepdim=True).values
    ex = torch.exp(x)
    return ex / ex.sum(dim=-1, keepdim=True)


def attention(Q, K, V, mask=None):
    d_k = Q.shape[-1]
    sc = torch.matmul(Q, K.transpose(-1, -2)) / math.sqrt(d_k)
    if mask is not None:
        # True 表示可以关注；False 的位置填 -inf
        sc = sc.masked_fill(mask == False, float("-inf"))  # noqa: E712
    wt = my_softmax(sc)
    out = torch.matmul(wt, V)
    return out, wt


print(attention(Q, K, V)[0])
