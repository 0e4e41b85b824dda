import torch


def additive_scores(q, k, W_q, W_k, w_v):
    if W_q.shape[1] != q.shape[-1] or W_k.shape[1] != k.shape[-1]:
        raise ValueError("widths do not fit")
    if not (W_q.shape[0] == W_k.shape[0] == w_v.shape[0]):
        raise ValueError("h mismatch")
    qh = torch.tanh(q @ W_q.T)
    kh = torch.tanh(k @ W_k.T)
    return (qh.unsqueeze(2) + kh.unsqueeze(1)) @ w_v


def additive_attention(q, k, v, W_q, W_k, w_v, valid_lens=None):
    scores = additive_scores(q, k, W_q, W_k, w_v)
    if valid_lens is not None:
        keep = torch.arange(scores.shape[-1])[None, None, :] < valid_lens[:, None, None]
        scores = scores.masked_fill(~keep, -1e6)
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
