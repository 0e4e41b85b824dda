import torch


def additive_scores(q, k, W_q, W_k, w_v):
    d_q, d_k = q.shape[-1], k.shape[-1]
    h = W_q.shape[0]
    if W_q.shape[1] != d_q:
        raise ValueError("W_q must be (h, d_q)")
    if W_k.shape[1] != d_k:
        raise ValueError("W_k must be (h, d_k)")
    if W_k.shape[0] != h or w_v.shape[0] != h:
        raise ValueError("W_q, W_k, w_v must share h")
    Pq = torch.einsum("hd,bnd->bnh", W_q, q)
    Pk = torch.einsum("hd,bmd->bmh", W_k, k)
    T = torch.tanh(Pq[:, :, None, :] + Pk[:, None, :, :])
    return torch.einsum("bnmh,h->bnm", T, w_v)


def additive_attention(q, k, v, W_q, W_k, w_v, valid_lens=None):
    scores = additive_scores(q, k, W_q, W_k, w_v)
    if valid_lens is not None:
        scores = scores.clone()
        for b in range(scores.shape[0]):
            L = int(valid_lens[b])
            scores[b, :, L:] = -1e6        # padding keys
    weights = torch.softmax(scores, dim=-1)
    context = torch.einsum("bnm,bmv->bnv", weights, v)
    return context, weights
