"""Additive attention in the D2L style: a small masked-softmax helper with repeat_interleave."""

import torch


def _masked_softmax(X, valid_lens):
    if valid_lens is None:
        return torch.softmax(X, dim=-1)
    B, n, m = X.shape
    lens = torch.repeat_interleave(valid_lens, n).reshape(B, n)   # same length for each query
    mask = torch.arange(m, dtype=torch.float32)[None, None, :] < lens[:, :, None]
    return torch.softmax(torch.where(mask, X, torch.full_like(X, -1e6)), dim=-1)


def additive_scores(q, k, W_q, W_k, w_v):
    """Scores (B, n, m): w_v · tanh(W_q q_i + W_k k_j) for every query i and key j."""
    hq, dq = W_q.shape
    hk, dk = W_k.shape
    if dq != q.shape[-1]:
        raise ValueError("W_q.shape[1] must equal d_q")
    if dk != k.shape[-1]:
        raise ValueError("W_k.shape[1] must equal d_k")
    if hq != hk or tuple(w_v.shape) != (hq,):
        raise ValueError("W_q, W_k and w_v must share the hidden size h")
    queries = torch.matmul(q, W_q.transpose(0, 1))
    keys = torch.matmul(k, W_k.transpose(0, 1))
    features = torch.tanh(queries.unsqueeze(2) + keys.unsqueeze(1))
    return (features * w_v).sum(dim=-1)


def additive_attention(q, k, v, W_q, W_k, w_v, valid_lens=None):
    """Return (context (B, n, d_v), weights (B, n, m)); keys j >= valid_lens[b] are padding."""
    scores = additive_scores(q, k, W_q, W_k, w_v)  # (B, n, m)
    weights = _masked_softmax(scores, valid_lens)
    return torch.bmm(weights, v), weights
