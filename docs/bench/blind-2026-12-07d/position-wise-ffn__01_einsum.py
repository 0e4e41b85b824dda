import torch


def position_wise_ffn(X, W1, b1, W2, b2):
    """Return max(0, X @ W1 + b1) @ W2 + b2, shape (B, n, d_model), for X of shape (B, n, d_model)."""
    # b: batch, n: position, i: d_model, f: d_ff
    H = torch.relu(torch.einsum("bni,if->bnf", X, W1) + b1)
    return torch.einsum("bnf,fi->bni", H, W2) + b2
