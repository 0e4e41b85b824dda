import torch
import torch.nn.functional as F


def position_wise_ffn(X, W1, b1, W2, b2):
    """Return max(0, X @ W1 + b1) @ W2 + b2, shape (B, n, d_model), for X of shape (B, n, d_model)."""
    # F.linear computes x @ weight.T + bias and wants weight as (out, in),
    # so hand it the transposes of our (in, out) matrices.
    hidden = F.linear(X, W1.t(), b1)
    hidden = F.relu(hidden)
    return F.linear(hidden, W2.t(), b2)
