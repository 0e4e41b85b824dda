"""Additive attention."""

import torch


def additive_scores(q, k, W_q, W_k, w_v):
    """Scores (B, n, m): w_v · tanh(W_q q_i + W_k k_j) for every query i and key j."""
    if W_q.shape[1] != q.shape[-1] or W_k.shape[1] != k.shape[-1]:
        raise ValueError("W_q / W_k do not fit the query / key widths")
    if W_q.shape[0] != W_k.shape[0] or W_q.shape[0] != w_v.shape[0]:
        raise ValueError("hidden sizes differ")
    qp = q @ W_q.T                     # (B, n, h)
    kp = k @ W_k.T                     # (B, m, h)
    return torch.tanh(qp[:, :, None, :] + kp[:, None, :, :]) @ w_v


def additive_attention(q, k, v, W_q, W_k, w_v, valid_lens=None):
    """Return (context (B, n, d_v), weights (B, n, m)); keys j >= valid_lens[b] are padding."""
    scores = additive_scores(q, k, W_q, W_k, w_v)  # (B, n, m)
    if valid_lens is not None:
        m = scores.shape[-1]
        padding = torch.arange(m)[None, None, :] >= valid_lens[:, None, None]
        # -inf is cleaner than a magic number: exp(-inf) is exactly 0
        scores = scores.masked_fill(padding, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
