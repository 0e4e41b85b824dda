"""Starter for the additive-attention exercise: fill in the TODOs (see the statement)."""

import torch


def additive_scores(q, k, W_q, W_k, w_v):
    """Scores (B, n, m): w_v · tanh(W_q q_i + W_k k_j) for every query i and key j."""
    h = W_q.shape[0]
    if W_q.shape[1] != q.shape[-1]:
        raise ValueError("W_q must have d_q columns")
    if W_k.shape[1] != k.shape[-1]:
        raise ValueError("W_k must have d_k columns")
    if W_k.shape[0] != h or w_v.shape[0] != h:
        raise ValueError("W_q, W_k and w_v disagree on h")
    qp = q @ W_q.T  # (B, n, h)
    kp = k @ W_k.T  # (B, m, h)
    feats = torch.tanh(qp.unsqueeze(2) + kp.unsqueeze(1))  # (B, n, m, h)
    return feats @ w_v  # (B, n, m)


def additive_attention(q, k, v, W_q, W_k, w_v, valid_lens=None):
    """Return (context (B, n, d_v), weights (B, n, m)); keys j >= valid_lens[b] are padding."""
    scores = additive_scores(q, k, W_q, W_k, w_v)  # (B, n, m)
    if valid_lens is not None:
        m = scores.shape[-1]
        keep = torch.arange(m)[None, :] < valid_lens[:, None]   # (B, m)
        scores = scores.masked_fill(~keep, -1e6)
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
