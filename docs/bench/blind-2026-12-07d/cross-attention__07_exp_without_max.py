import math

import torch


def masked_softmax(scores, valid_lens):
    # softmax over the last axis, padding keys get exp(...) = 0
    if valid_lens is not None:
        m = scores.shape[-1]
        keep = torch.arange(m, device=scores.device)[None, None, :] < valid_lens[:, None, None]
        scores = torch.where(keep, scores, torch.full_like(scores, torch.finfo(scores.dtype).min))
    e = torch.exp(scores)
    return e / e.sum(dim=-1, keepdim=True)


def cross_attention(dec, enc, W_q, W_k, W_v, enc_valid_lens=None):
    """Return (output (B, n, d_v), weights (B, n, m)): decoder queries attend to encoder keys."""
    Q = dec @ W_q
    K = enc @ W_k
    V = enc @ W_v
    scores = Q @ K.transpose(1, 2) / math.sqrt(W_q.shape[1])
    weights = masked_softmax(scores, enc_valid_lens)
    return weights @ V, weights
