import math

import torch

Q = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
K = Q.clone()
V = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]])

# Part A
scores = torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [1.0, 1.0, 2.0]])
weights = torch.exp(scores) / torch.exp(scores).sum(dim=1, keepdim=True)
context = weights[0] @ V


# Part B: softmax written out, the way the lesson derives it
def attention(Q, K, V, mask=None):
    """Return (context, weights) for Q (..., n, d_k), K (..., m, d_k), V (..., m, d_v)."""
    d_k = Q.shape[-1]
    s = Q @ K.transpose(-2, -1) / math.sqrt(d_k)
    e = torch.exp(s)
    if mask is not None:
        e = e * mask  # masked keys contribute nothing
    w = e / e.sum(dim=-1, keepdim=True)
    return w @ V, w
