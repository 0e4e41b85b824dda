import math

import numpy as np
import torch


def causal_mask(n):
    if n < 1:
        raise ValueError("n must be at least 1")
    return torch.from_numpy(np.tril(np.ones((n, n), dtype=bool)))


def causal_attention(Q, K, V):
    if Q.shape[-2] != K.shape[-2] or Q.shape[-2] != V.shape[-2]:
        raise ValueError("same n needed")
    if Q.shape[-1] != K.shape[-1]:
        raise ValueError("same d needed")
    q = Q.detach().numpy().astype(np.float64)
    k = K.detach().numpy().astype(np.float64)
    v = V.detach().numpy().astype(np.float64)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = np.where(causal_mask(q.shape[-2]).numpy(), s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    w = e / e.sum(axis=-1, keepdims=True)
    return torch.from_numpy(w @ v), torch.from_numpy(w)
