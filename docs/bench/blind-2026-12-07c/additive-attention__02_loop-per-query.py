import torch


def additive_scores(q, k, W_q, W_k, w_v):
    """Scores (B, n, m): w_v · tanh(W_q q_i + W_k k_j) for every query i and key j."""
    h = W_q.shape[0]
    if W_q.shape[1] != q.shape[2]:
        raise ValueError("W_q must have d_q columns")
    if W_k.shape[1] != k.shape[2]:
        raise ValueError("W_k must have d_k columns")
    if W_k.shape[0] != h or w_v.shape[0] != h:
        raise ValueError("W_q, W_k and w_v disagree on h")
    B, n, m = q.shape[0], q.shape[1], k.shape[1]
    scores = torch.empty(B, n, m, dtype=q.dtype, device=q.device)
    for b in range(B):
        keys_h = W_k @ k[b].T                  # (h, m): all keys of this row, projected
        for i in range(n):
            query_h = W_q @ q[b, i]            # (h,)
            hidden = torch.tanh(query_h[:, None] + keys_h)   # (h, m)
            scores[b, i] = w_v @ hidden        # (m,)
    return scores


def additive_attention(q, k, v, W_q, W_k, w_v, valid_lens=None):
    """Return (context (B, n, d_v), weights (B, n, m)); keys j >= valid_lens[b] are padding."""
    scores = additive_scores(q, k, W_q, W_k, w_v)  # (B, n, m)
    if valid_lens is not None:
        scores = scores.clone()
        for b in range(scores.shape[0]):
            scores[b, :, int(valid_lens[b]):] = -1e6
    weights = torch.softmax(scores, dim=-1)
    return torch.bmm(weights, v), weights
