import math

import torch

Q = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
K = Q.clone()
V = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]])

# Part A, worked on paper. sqrt(d_k) = 2.
# Q·Kᵀ = [[2,0,2],[0,2,2],[2,2,4]]  ->  / 2
scores = [[1.0, 0.0, 1.0],
          [0.0, 1.0, 1.0],
          [1.0, 1.0, 2.0]]
# row 0: e/(2e+1) = 0.4223, 1/(2e+1) = 0.1554 ; row 2: 1/(2+e) = 0.2119, e/(2+e) = 0.5761
weights = [[0.4223, 0.1554, 0.4223],
           [0.1554, 0.4223, 0.4223],
           [0.2119, 0.2119, 0.5761]]
# 0.4223*[1,2,3,4] + 0.1554*[5,6,7,8] + 0.4223*[9,10,11,12] = [5, 6, 7, 8]
context = [5.0, 6.0, 7.0, 8.0]


# Part B
def attention(Q, K, V, mask=None):
    """Return (context, weights) for Q (..., n, d_k), K (..., m, d_k), V (..., m, d_v)."""
    d_k = Q.shape[-1]
    scores = Q @ K.transpose(-2, -1) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ V, weights
