import math

import torch

Q = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
K = Q.clone()
V = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]])

# Part A, worked on paper: Q K^T = [[2,0,2],[0,2,2],[2,2,4]], divided by sqrt(4) = 2
scores = [[1.0, 0.0, 1.0],
          [0.0, 1.0, 1.0],
          [1.0, 1.0, 2.0]]
# row 0: e^1, e^0, e^1 -> 2.718/(2*2.718+1) = 0.4223, 1/6.4366 = 0.1554
# row 2: e^1, e^1, e^2 -> 2.718/(2*2.718+7.389) = 0.2119, 7.389/12.826 = 0.5761
weights = [[0.4223, 0.1554, 0.4223],
           [0.1554, 0.4223, 0.4223],
           [0.2119, 0.2119, 0.5761]]
# 0.4223*[1,2,3,4] + 0.1554*[5,6,7,8] + 0.4223*[9,10,11,12]
context = [5.0, 6.0, 7.0, 8.0]


# Part B
def attention(Q, K, V, mask=None):
    """Return (context, weights) for Q (..., n, d_k), K (..., m, d_k), V (..., m, d_v)."""
    d_k = Q.shape[-1]
    s = torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf"))
    w = torch.softmax(s, dim=-1)
    return torch.matmul(w, V), w
