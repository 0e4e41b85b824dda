"""Reference solution for the position-wise feed-forward network: max(0, X W1 + b1) W2 + b2."""

import torch


def position_wise_ffn(X, W1, b1, W2, b2):
    """Return the FFN applied to every position of X (B, n, d_model): shape (B, n, d_model)."""
    H = torch.relu(X @ W1 + b1)  # (B, n, d_ff): widen, add the bias, then the ReLU
    return H @ W2 + b2  # (B, n, d_model): back to the model width
