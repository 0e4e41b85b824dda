import torch


def additive_scores(q, k, W_q, W_k, w_v):
    """Scores (B, n, m): w_v · tanh(W_q q_i + W_k k_j) for every query i and key j."""
    if W_q.shape[1] != q.shape[-1]:
        raise ValueError("W_q does not match the query width")
    if W_k.shape[1] != k.shape[-1]:
        raise ValueError("W_k does not match the key width")
    if W_q.shape[0] != W_k.shape[0] or W_q.shape[0] != w_v.shape[0]:
        raise ValueError("W_q, W_k and w_v must have the same h")
    q_proj = q @ W_q.T  # (B, n, h)
    k_proj = k @ W_k.T  # (B, m, h)
    features = torch.tanh(q_proj.unsqueeze(2) + k_proj.unsqueeze(1))  # (B, n, m, h)
    return (features * w_v).sum(dim=-1)  # (B, n, m)


def additive_attention(q, k, v, W_q, W_k, w_v, valid_lens=None):
    """Return (context (B, n, d_v), weights (B, n, m)); keys j >= valid_lens[b] are padding."""
    scores = additive_scores(q, k, W_q, W_k, w_v)  # (B, n, m)
    if valid_lens is not None:
        key_idx = torch.arange(scores.shape[-1])
        pad = key_idx[None, None, :] >= valid_lens[:, None, None]
        scores = scores.masked_fill(pad, -1e6)
    weights = torch.softmax(scores, dim=1)
    return weights @ v, weights
