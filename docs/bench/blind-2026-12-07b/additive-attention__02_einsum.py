"""Starter for the additive-attention exercise: fill in the TODOs (see the statement)."""

import torch


def additive_scores(q, k, W_q, W_k, w_v):
    """Scores (B, n, m): w_v · tanh(W_q q_i + W_k k_j) for every query i and key j."""
    if W_q.dim() != 2 or W_k.dim() != 2 or w_v.dim() != 1:
        raise ValueError("W_q and W_k must be matrices and w_v a vector")
    if W_q.shape[1] != q.shape[-1] or W_k.shape[1] != k.shape[-1]:
        raise ValueError("projection widths do not match the query/key widths")
    if not (W_q.shape[0] == W_k.shape[0] == w_v.shape[0]):
        raise ValueError("hidden size h differs between W_q, W_k and w_v")
    qh = torch.einsum("bnd,hd->bnh", q, W_q)
    kh = torch.einsum("bmd,hd->bmh", k, W_k)
    return torch.einsum("bnmh,h->bnm", torch.tanh(qh[:, :, None, :] + kh[:, None, :, :]), w_v)


def additive_attention(q, k, v, W_q, W_k, w_v, valid_lens=None):
    """Return (context (B, n, d_v), weights (B, n, m)); keys j >= valid_lens[b] are padding."""
    scores = additive_scores(q, k, W_q, W_k, w_v)  # (B, n, m)
    if valid_lens is not None:
        B, n, m = scores.shape
        lens = valid_lens.reshape(B, 1, 1)
        pos = torch.arange(m).reshape(1, 1, m)
        scores = torch.where(pos < lens, scores, torch.full_like(scores, -1e6))
    weights = torch.softmax(scores, dim=-1)
    context = torch.einsum("bnm,bmv->bnv", weights, v)
    return context, weights
