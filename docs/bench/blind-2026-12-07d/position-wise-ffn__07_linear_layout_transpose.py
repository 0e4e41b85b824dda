import torch


def position_wise_ffn(X, W1, b1, W2, b2):
    """Return max(0, X @ W1 + b1) @ W2 + b2, shape (B, n, d_model), for X of shape (B, n, d_model)."""
    # like nn.Linear: y = x W^T + b
    H = torch.relu(X @ W1.T + b1)
    return H @ W2.T + b2
