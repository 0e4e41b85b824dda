"""Additive attention (Bahdanau)."""

import torch


def additive_scores(q, k, W_q, W_k, w_v):
    """Scores (B, n, m): w_v · tanh(W_q q_i + W_k k_j) for every query i and key j."""
    h = w_v.shape[0]
    if W_q.shape != (h, q.shape[-1]) or W_k.shape != (h, k.shape[-1]):
        raise ValueError("W_q must be (h, d_q) and W_k (h, d_k) with h = len(w_v)")
    qh = (q @ W_q.T).unsqueeze(2)      # (B, n, 1, h)
    kh = (k @ W_k.T).unsqueeze(1)      # (B, 1, m, h)
    return torch.tanh(qh + kh) @ w_v


def additive_attention(q, k, v, W_q, W_k, w_v, valid_lens=None):
    """Return (context (B, n, d_v), weights (B, n, m)); keys j >= valid_lens[b] are padding."""
    scores = additive_scores(q, k, W_q, W_k, w_v)  # (B, n, m)
    if valid_lens is not None:
        m = scores.shape[-1]
        positions = torch.arange(m).reshape(1, 1, m)
        visible = positions <= valid_lens.reshape(-1, 1, 1)
        scores = torch.where(visible, scores, torch.tensor(-1e6, dtype=scores.dtype))
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
