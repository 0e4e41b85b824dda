import math

import torch
import torch.nn.functional as F

Q = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
K = Q.clone()
V = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]])


def attention(Q, K, V, mask=None):
    d_k = Q.shape[-1]
    scores = torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(~mask, 0.0)
    weights = F.softmax(scores, dim=-1)
    return torch.matmul(weights, V), weights


ctx, weights = attention(Q, K, V)
scores = torch.matmul(Q, K.T) / math.sqrt(4)
context = ctx[0]
print(scores, weights, context, sep="\n")
