import torch


def position_wise_ffn(X, W1, b1, W2, b2):
    """Return max(0, X @ W1 + b1) @ W2 + b2, shape (B, n, d_model), for X of shape (B, n, d_model)."""
    X = X.float()
    B, n, d_model = X.shape
    flat = X.reshape(B * n, d_model)          # every position is one row
    H = torch.relu(flat @ W1 + b1)            # (B*n, d_ff)
    out = H @ W2 + b2                         # (B*n, d_model)
    return out.reshape(B, n, d_model)
