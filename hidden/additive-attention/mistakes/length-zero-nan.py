"""Known mistake for additive-attention: padded scores filled with -inf, so a row with valid length 0 is 0/0 = NaN."""

import torch


def additive_scores(q, k, W_q, W_k, w_v):
    """Scores (B, n, m): w_v . tanh(W_q q_i + W_k k_j) for every query i and key j."""
    h = W_q.shape[0]
    if W_q.shape[1] != q.shape[-1] or W_k.shape[1] != k.shape[-1]:
        raise ValueError("W_q must be (h, d_q) and W_k (h, d_k) for the given q and k")
    if W_k.shape[0] != h or w_v.shape != (h,):
        raise ValueError("W_q, W_k and w_v must agree on the hidden size h")
    qh = q @ W_q.T  # (B, n, h)
    kh = k @ W_k.T  # (B, m, h)
    features = torch.tanh(qh[:, :, None, :] + kh[:, None, :, :])  # (B, n, m, h)
    return features @ w_v  # (B, n, m)


def additive_attention(q, k, v, W_q, W_k, w_v, valid_lens=None):
    """Return (context (B, n, d_v), weights (B, n, m)); keys j >= valid_lens[b] are padding."""
    scores = additive_scores(q, k, W_q, W_k, w_v)  # (B, n, m)
    if valid_lens is not None:
        keys = torch.arange(scores.shape[-1])  # (m,)
        padded = keys[None, None, :] >= valid_lens[:, None, None]  # (B, 1, m)
        scores = scores.masked_fill(padded, float("-inf"))  # mistake: not the statement's -1e6
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights  # (B, n, d_v), (B, n, m)
