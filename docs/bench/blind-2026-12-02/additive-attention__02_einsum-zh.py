import torch
import torch.nn.functional as F

# 加性注意力：a(q, k) = w_v^T tanh(W_q q + W_k k)


def additive_scores(q, k, W_q, W_k, w_v):
    B, n, d_q = q.shape
    _, m, d_k = k.shape
    h = W_q.shape[0]
    if W_q.shape[1] != d_q or W_k.shape[1] != d_k:
        raise ValueError("W_q / W_k 的列数与 q / k 的宽度不符")
    if W_k.shape[0] != h or w_v.shape[0] != h:
        raise ValueError("W_q、W_k、w_v 的隐藏维度 h 不一致")
    qp = torch.einsum("bnd,hd->bnh", q, W_q)
    kp = torch.einsum("bmd,hd->bmh", k, W_k)
    s = torch.tanh(qp[:, :, None, :] + kp[:, None, :, :])   # (B, n, m, h)
    return torch.einsum("bnmh,h->bnm", s, w_v)


def additive_attention(q, k, v, W_q, W_k, w_v, valid_lens=None):
    scores = additive_scores(q, k, W_q, W_k, w_v)
    if valid_lens is not None:
        B, n, m = scores.shape
        idx = torch.arange(m).expand(B, n, m)
        pad = idx >= valid_lens.view(B, 1, 1)      # 填充的位置
        scores = torch.where(pad, torch.full_like(scores, -1e6), scores)
    weights = F.softmax(scores, dim=-1)
    context = torch.bmm(weights, v)
    return context, weights
