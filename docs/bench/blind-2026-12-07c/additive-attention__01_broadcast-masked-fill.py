"""Additive (Bahdanau) attention, evaluation mode, no learned state."""

import torch


def additive_scores(q, k, W_q, W_k, w_v):
    """Scores (B, n, m): w_v · tanh(W_q q_i + W_k k_j) for every query i and key j."""
    if W_q.shape[1] != q.shape[-1]:
        raise ValueError(f"W_q has {W_q.shape[1]} columns but the queries have width {q.shape[-1]}")
    if W_k.shape[1] != k.shape[-1]:
        raise ValueError(f"W_k has {W_k.shape[1]} columns but the keys have width {k.shape[-1]}")
    if not (W_q.shape[0] == W_k.shape[0] == w_v.shape[0]):
        raise ValueError("W_q, W_k and w_v must agree on the hidden size h")
    qh = q @ W_q.T  # (B, n, h)
    kh = k @ W_k.T  # (B, m, h)
    features = torch.tanh(qh.unsqueeze(2) + kh.unsqueeze(1))  # (B, n, m, h)
    return features @ w_v  # (B, n, m)


def additive_attention(q, k, v, W_q, W_k, w_v, valid_lens=None):
    """Return (context (B, n, d_v), weights (B, n, m)); keys j >= valid_lens[b] are padding."""
    scores = additive_scores(q, k, W_q, W_k, w_v)  # (B, n, m)
    if valid_lens is not None:
        m = scores.shape[-1]
        keep = torch.arange(m, device=scores.device)[None, None, :] < valid_lens[:, None, None]
        scores = scores.masked_fill(~keep, -1e6)
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
