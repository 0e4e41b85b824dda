import torch


def additive_scores(q, k, W_q, W_k, w_v):
    if W_q.shape[1] != q.shape[-1]:
        raise ValueError("W_q must have d_q columns")
    if W_k.shape[1] != k.shape[-1]:
        raise ValueError("W_k must have d_k columns")
    if not (W_q.shape[0] == W_k.shape[0] == w_v.shape[0]):
        raise ValueError("h mismatch")
    qh = q @ W_q.T                       # (B, n, h)
    kh = k @ W_k.T                       # (B, m, h)
    f = torch.tanh(qh.unsqueeze(2) + kh.unsqueeze(1))
    return f @ w_v


def additive_attention(q, k, v, W_q, W_k, w_v, valid_lens=None):
    scores = additive_scores(q, k, W_q, W_k, w_v)
    if valid_lens is not None:
        B, n, m = scores.shape
        keep = torch.arange(m)[None, :] < valid_lens[:, None]      # (B, m)
        scores = scores.masked_fill(~keep.unsqueeze(-1), -1e6)
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
