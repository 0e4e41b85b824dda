"""Starter for the additive-attention exercise: fill in the TODOs (see the statement)."""

import torch


def additive_scores(q, k, W_q, W_k, w_v):
    """Scores (B, n, m): w_v · tanh(W_q q_i + W_k k_j) for every query i and key j."""
    # TODO: check the widths (raise ValueError when they do not fit).
    # TODO: project: q @ W_q.T is (B, n, h), k @ W_k.T is (B, m, h).
    # TODO: add every query to every key with broadcasting: (B, n, 1, h) + (B, 1, m, h).
    # TODO: tanh, then project the h features onto w_v -> (B, n, m).
    raise NotImplementedError("additive_scores is not written yet")


def additive_attention(q, k, v, W_q, W_k, w_v, valid_lens=None):
    """Return (context (B, n, d_v), weights (B, n, m)); keys j >= valid_lens[b] are padding."""
    scores = additive_scores(q, k, W_q, W_k, w_v)  # (B, n, m)
    # TODO: hide the padded keys (fill with -1e6) when valid_lens is given.
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
