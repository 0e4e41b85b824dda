import torch


def causal_mask(n):
    if n < 1:
        raise ValueError("n must be at least 1")
    return torch.tril(torch.ones(n, n, dtype=torch.bool))


def causal_attention(Q, K, V):
    if Q.shape[-2] != K.shape[-2] or Q.shape[-2] != V.shape[-2]:
        raise ValueError("same n needed")
    if Q.shape[-1] != K.shape[-1]:
        raise ValueError("same d needed")
    scores = Q @ K.transpose(-2, -1)
    scores = scores.masked_fill(~causal_mask(Q.shape[-2]), float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ V, weights
