import torch
import torch.nn.functional as F


def position_wise_ffn(X, W1, b1, W2, b2):
    """Return max(0, X @ W1 + b1) @ W2 + b2, shape (B, n, d_model), for X of shape (B, n, d_model)."""
    H = F.gelu(X @ W1 + b1)   # (B, n, d_ff)
    return H @ W2 + b2         # (B, n, d_model)
