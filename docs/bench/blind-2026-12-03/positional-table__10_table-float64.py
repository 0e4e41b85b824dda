import math

import numpy as np
import torch


def positional_encoding(max_len, d_model):
    if max_len < 1:
        raise ValueError("max_len must be >= 1")
    if d_model < 2 or d_model % 2 != 0:
        raise ValueError("d_model must be even and >= 2")
    pos = np.arange(max_len)[:, None]
    div = np.power(10000.0, np.arange(0, d_model, 2) / d_model)
    P = np.zeros((max_len, d_model))
    P[:, 0::2] = np.sin(pos / div)
    P[:, 1::2] = np.cos(pos / div)
    return torch.from_numpy(P)


def add_positions(X):
    B, T, d_model = X.shape
    return X * math.sqrt(d_model) + positional_encoding(T, d_model).to(X.dtype)
