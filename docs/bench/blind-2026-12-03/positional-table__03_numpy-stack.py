import math

import numpy as np
import torch


def positional_encoding(max_len, d_model):
    if max_len < 1 or d_model < 2 or d_model % 2:
        raise ValueError(f"bad sizes: max_len={max_len}, d_model={d_model} (need max_len >= 1, even d_model >= 2)")
    pos = np.arange(max_len, dtype=np.float64)[:, None]
    inv_freq = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)
    ang = pos * inv_freq[None, :]                        # (max_len, d_model/2)
    # interleave: stack on a new last axis, then flatten the pairs
    P = np.stack([np.sin(ang), np.cos(ang)], axis=-1).reshape(max_len, d_model)
    return torch.from_numpy(P).to(torch.float32)


def add_positions(X):
    B, T, d_model = X.shape
    scaled = X * math.sqrt(d_model)
    return scaled + positional_encoding(T, d_model).to(X.dtype)[None]


if __name__ == "__main__":
    print(positional_encoding(5, 4))
