import torch


def additive_scores(q, k, W_q, W_k, w_v):
    # 宽度检查
    if W_q.shape[1] != q.shape[2]:
        raise ValueError("W_q 的列数应等于 d_q")
    if W_k.shape[1] != k.shape[2]:
        raise ValueError("W_k 的列数应等于 d_k")
    if len({W_q.shape[0], W_k.shape[0], w_v.shape[0]}) != 1:
        raise ValueError("W_q、W_k、w_v 的 h 不一致")
    kh = torch.matmul(k, W_k.transpose(0, 1))          # (B, m, h)
    cols = []
    for i in range(q.shape[1]):                        # 逐个查询
        qi = torch.matmul(q[:, i, :], W_q.t())         # (B, h)
        f = torch.tanh(qi.unsqueeze(1) + kh)           # (B, m, h)
        cols.append(torch.matmul(f, w_v))              # (B, m)
    return torch.stack(cols, dim=1)                    # (B, n, m)


def additive_attention(q, k, v, W_q, W_k, w_v, valid_lens=None):
    scores = additive_scores(q, k, W_q, W_k, w_v)
    if valid_lens is not None:
        B, n, m = scores.shape
        mask = torch.arange(m).expand(B, m) < valid_lens.reshape(B, 1)   # (B, m)
        scores = torch.where(mask.unsqueeze(1), scores, torch.full_like(scores, -1e6))
    weights = torch.softmax(scores, dim=-1)
    return torch.bmm(weights, v), weights
