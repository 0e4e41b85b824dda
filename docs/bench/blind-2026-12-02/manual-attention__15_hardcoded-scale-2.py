import torch

Q = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
K = Q.clone()
V = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]])

SCALE = 2.0   # sqrt(d_k) with d_k = 4


def attention(Q, K, V, mask=None):
    scores = torch.matmul(Q, K.transpose(-2, -1)) / SCALE
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return torch.matmul(weights, V), weights


out, weights = attention(Q, K, V)
scores = Q @ K.T / SCALE
context = out[0]
