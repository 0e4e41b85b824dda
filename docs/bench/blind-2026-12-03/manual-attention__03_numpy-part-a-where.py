import math

import numpy as np
import torch

Q = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
K = Q.clone()
V = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]])

# Part A in plain numpy (float64)
_q = Q.numpy().astype(np.float64)
_v = V.numpy().astype(np.float64)
_s = _q @ _q.T / np.sqrt(_q.shape[1])
_e = np.exp(_s - _s.max(axis=1, keepdims=True))
_w = _e / _e.sum(axis=1, keepdims=True)

scores = _s
weights = _w
context = (_w @ _v)[0]
print("scores\n", scores)
print("weights\n", np.round(weights, 4))
print("context", context)


def attention(Q, K, V, mask=None):
    d_k = Q.shape[-1]
    scores = torch.matmul(Q, K.transpose(-1, -2)) / math.sqrt(d_k)
    if mask is not None:
        neg = torch.full_like(scores, float("-inf"))
        scores = torch.where(mask, scores, neg)
    # subtract the row max myself (softmax does it anyway, but be safe)
    scores = scores - scores.amax(dim=-1, keepdim=True)
    e = torch.exp(scores)
    weights = e / e.sum(dim=-1, keepdim=True)
    return weights @ V, weights
