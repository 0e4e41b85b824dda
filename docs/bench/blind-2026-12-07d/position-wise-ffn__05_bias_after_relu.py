import torch


def position_wise_ffn(X, W1, b1, W2, b2):
    """Return max(0, X @ W1 + b1) @ W2 + b2, shape (B, n, d_model), for X of shape (B, n, d_model)."""
    # first layer
    H = torch.relu(torch.matmul(X, W1)) + b1
    # second layer
    output = torch.matmul(H, W2) + b2
    return output
