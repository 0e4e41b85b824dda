"""Additive attention, one key at a time (easier for me to follow than 4-D broadcasting)."""

import torch


def additive_scores(q, k, W_q, W_k, w_v):
    """Scores (B, n, m): w_v · tanh(W_q q_i + W_k k_j) for every query i and key j."""
    d_q, d_k = q.shape[-1], k.shape[-1]
    if W_q.shape[1] != d_q or W_k.shape[1] != d_k:
        raise ValueError("projection widths do not match the query/key widths")
    if not (W_q.shape[0] == W_k.shape[0] == w_v.shape[0]):
        raise ValueError("W_q, W_k and w_v disagree on the hidden size h")

    projected_q = q @ W_q.T          # (B, n, h)
    projected_k = k @ W_k.T          # (B, m, h)
    columns = []
    for j in range(projected_k.shape[1]):
        key_j = projected_k[:, j:j + 1, :]                  # (B, 1, h), broadcast over queries
        columns.append(torch.tanh(projected_q + key_j) @ w_v)   # (B, n)
    return torch.stack(columns, dim=-1)                     # (B, n, m)


def additive_attention(q, k, v, W_q, W_k, w_v, valid_lens=None):
    """Return (context (B, n, d_v), weights (B, n, m)); keys j >= valid_lens[b] are padding."""
    scores = additive_scores(q, k, W_q, W_k, w_v)  # (B, n, m)
    if valid_lens is not None:
        scores = scores.clone()
        for b in range(scores.shape[0]):
            scores[b, :, int(valid_lens[b]):] = -1e6
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
