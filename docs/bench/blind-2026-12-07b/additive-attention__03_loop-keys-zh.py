"""加性注意力：对每个键循环，写法直观。"""

import torch


def additive_scores(q, k, W_q, W_k, w_v):
    """Scores (B, n, m): w_v · tanh(W_q q_i + W_k k_j) for every query i and key j."""
    # 维度检查
    h, d_q = W_q.shape
    h_k, d_k = W_k.shape
    if d_q != q.shape[-1]:
        raise ValueError("W_q 的列数必须等于 d_q")
    if d_k != k.shape[-1]:
        raise ValueError("W_k 的列数必须等于 d_k")
    if h_k != h or tuple(w_v.shape) != (h,):
        raise ValueError("W_q、W_k、w_v 的隐藏维度 h 不一致")
    qp = torch.matmul(q, W_q.t())        # (B, n, h)
    cols = []
    for j in range(k.shape[1]):          # 逐个键
        kj = torch.matmul(k[:, j, :], W_k.t())          # (B, h)
        feat = torch.tanh(qp + kj.unsqueeze(1))         # (B, n, h)
        cols.append((feat * w_v).sum(dim=-1))           # (B, n)
    return torch.stack(cols, dim=-1)     # (B, n, m)


def additive_attention(q, k, v, W_q, W_k, w_v, valid_lens=None):
    """Return (context (B, n, d_v), weights (B, n, m)); keys j >= valid_lens[b] are padding."""
    scores = additive_scores(q, k, W_q, W_k, w_v)  # (B, n, m)
    if valid_lens is not None:
        scores = scores.clone()
        for b in range(scores.shape[0]):
            L = int(valid_lens[b])
            scores[b, :, L:] = -1e6      # 填充的键
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
