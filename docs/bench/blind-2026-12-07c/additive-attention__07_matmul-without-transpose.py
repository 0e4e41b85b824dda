import torch


def additive_scores(q, k, W_q, W_k, w_v):
    """Scores (B, n, m): w_v · tanh(W_q q_i + W_k k_j) for every query i and key j."""
    if W_q.shape[1] != q.shape[-1]:
        raise ValueError("W_q must have d_q columns")
    if W_k.shape[1] != k.shape[-1]:
        raise ValueError("W_k must have d_k columns")
    if W_q.shape[0] != W_k.shape[0] or W_k.shape[0] != w_v.shape[0]:
        raise ValueError("h differs between W_q, W_k and w_v")
    # project: (B, n, d_q) x (h, d_q) -> (B, n, h)
    qp = torch.matmul(q, W_q)
    kp = torch.matmul(k, W_k)
    return torch.tanh(qp.unsqueeze(2) + kp.unsqueeze(1)) @ w_v


def additive_attention(q, k, v, W_q, W_k, w_v, valid_lens=None):
    """Return (context (B, n, d_v), weights (B, n, m)); keys j >= valid_lens[b] are padding."""
    scores = additive_scores(q, k, W_q, W_k, w_v)  # (B, n, m)
    if valid_lens is not None:
        m = scores.shape[-1]
        keep = torch.arange(m)[None, None, :] < valid_lens[:, None, None]
        scores = scores.masked_fill(~keep, -1e6)
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
