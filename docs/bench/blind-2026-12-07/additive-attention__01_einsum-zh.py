"""加性注意力（Bahdanau）：用 einsum 写，一步到位。"""

import torch


def additive_scores(q, k, W_q, W_k, w_v):
    """Scores (B, n, m): w_v · tanh(W_q q_i + W_k k_j) for every query i and key j."""
    h = W_q.shape[0]
    # 先检查形状：列数要对上 d_q / d_k，三个参数的 h 要一致
    if W_q.shape[1] != q.shape[-1]:
        raise ValueError(f"W_q 需要 {q.shape[-1]} 列，实际是 {W_q.shape[1]}")
    if W_k.shape[1] != k.shape[-1]:
        raise ValueError(f"W_k 需要 {k.shape[-1]} 列，实际是 {W_k.shape[1]}")
    if W_k.shape[0] != h or w_v.shape[0] != h or w_v.dim() != 1:
        raise ValueError("W_q、W_k、w_v 的隐藏维度 h 不一致")
    qh = torch.einsum("bnd,hd->bnh", q, W_q)   # (B, n, h)
    kh = torch.einsum("bmd,hd->bmh", k, W_k)   # (B, m, h)
    feat = torch.tanh(qh.unsqueeze(2) + kh.unsqueeze(1))   # (B, n, m, h)
    return torch.einsum("bnmh,h->bnm", feat, w_v)


def additive_attention(q, k, v, W_q, W_k, w_v, valid_lens=None):
    """Return (context (B, n, d_v), weights (B, n, m)); keys j >= valid_lens[b] are padding."""
    scores = additive_scores(q, k, W_q, W_k, w_v)  # (B, n, m)
    if valid_lens is not None:
        m = scores.shape[-1]
        # 键的下标 >= 有效长度的位置是填充，用 -1e6 盖住
        keep = torch.arange(m, device=scores.device).view(1, 1, m) < valid_lens.view(-1, 1, 1)
        scores = scores.masked_fill(~keep, -1e6)
    weights = torch.softmax(scores, dim=-1)
    return torch.einsum("bnm,bmv->bnv", weights, v), weights
