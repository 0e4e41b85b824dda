import torch


def additive_scores(q, k, W_q, W_k, w_v):
    if q.shape[-1] != W_q.shape[1]:
        raise ValueError("W_q does not fit the query width")
    if k.shape[-1] != W_k.shape[1]:
        raise ValueError("W_k does not fit the key width")
    if W_q.shape[0] != W_k.shape[0] or W_q.shape[0] != w_v.numel():
        raise ValueError("W_q, W_k and w_v must share h")
    qh = torch.matmul(q, W_q.t())
    kh = torch.matmul(k, W_k.t())
    cols = []
    for j in range(k.shape[1]):
        # query i against key j, for all i at once
        cols.append(torch.tanh(qh + kh[:, j:j + 1, :]) @ w_v)   # (B, n)
    return torch.stack(cols, dim=-1)


def additive_attention(q, k, v, W_q, W_k, w_v, valid_lens=None):
    scores = additive_scores(q, k, W_q, W_k, w_v)
    if valid_lens is not None:
        scores = scores.clone()
        for b in range(scores.shape[0]):
            scores[b, :, int(valid_lens[b]):] = -1e6
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
