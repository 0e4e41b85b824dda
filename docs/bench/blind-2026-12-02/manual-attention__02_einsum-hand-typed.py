import math

import torch

Q = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
K = Q.clone()
V = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]])

# Part A, worked out on paper:
# Q K^T = [[2,0,2],[0,2,2],[2,2,4]], divided by sqrt(4) = 2
scores = [[1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [1.0, 1.0, 2.0]]
# row 0: e/(2e+1) = 0.4223, 1/(2e+1) = 0.1554
# row 2: e/(2e+e^2) = 0.2119, e^2/(2e+e^2) = 0.5761
weights = [[0.4223, 0.1554, 0.4223], [0.1554, 0.4223, 0.4223], [0.2119, 0.2119, 0.5761]]
# 0.4223*[1,2,3,4] + 0.1554*[5,6,7,8] + 0.4223*[9,10,11,12]
context = [0.4223 * 1 + 0.1554 * 5 + 0.4223 * 9,
           0.4223 * 2 + 0.1554 * 6 + 0.4223 * 10,
           0.4223 * 3 + 0.1554 * 7 + 0.4223 * 11,
           0.4223 * 4 + 0.1554 * 8 + 0.4223 * 12]


# Part B
def attention(Q, K, V, mask=None):
    d_k = Q.shape[-1]
    scores = torch.einsum("...nd,...md->...nm", Q, K) / math.sqrt(d_k)
    if mask is not None:
        # mask: True = allowed
        scores = torch.where(mask, scores, torch.full_like(scores, -1e30))
    scores = scores - scores.amax(dim=-1, keepdim=True)
    e = torch.exp(scores)
    weights = e / e.sum(dim=-1, keepdim=True)
    context = torch.einsum("...nm,...mv->...nv", weights, V)
    return context, weights
