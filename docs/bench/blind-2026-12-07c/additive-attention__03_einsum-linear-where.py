import torch
import torch.nn.functional as F


def additive_scores(q, k, W_q, W_k, w_v):
    """分数 (B, n, m)：对每个查询 i 和键 j 计算 w_v · tanh(W_q q_i + W_k k_j)。"""
    # 宽度检查
    if W_q.size(1) != q.size(-1) or W_k.size(1) != k.size(-1):
        raise ValueError("W_q / W_k 的列数与查询/键的宽度不一致")
    if len({W_q.size(0), W_k.size(0), w_v.size(0)}) != 1:
        raise ValueError("W_q、W_k、w_v 的隐藏维度 h 不一致")
    qp = F.linear(q, W_q)          # (B, n, h)
    kp = F.linear(k, W_k)          # (B, m, h)
    hidden = torch.tanh(qp[:, :, None, :] + kp[:, None, :, :])  # (B, n, m, h)
    return torch.einsum("bnmh,h->bnm", hidden, w_v)


def additive_attention(q, k, v, W_q, W_k, w_v, valid_lens=None):
    """返回 (context (B, n, d_v), weights (B, n, m))；j >= valid_lens[b] 的键是填充。"""
    scores = additive_scores(q, k, W_q, W_k, w_v)
    if valid_lens is not None:
        m = scores.size(-1)
        visible = torch.arange(m).view(1, 1, m) < valid_lens.view(-1, 1, 1)
        # 填充位置用 -1e6（不用 -inf，长度为 0 时才不会得到 NaN）
        scores = torch.where(visible, scores, torch.tensor(-1e6, dtype=scores.dtype))
    weights = F.softmax(scores, dim=-1)
    context = torch.einsum("bnm,bmv->bnv", weights, v)
    return context, weights
