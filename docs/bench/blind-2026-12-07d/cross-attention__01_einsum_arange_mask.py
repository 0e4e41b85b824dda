import math

import torch


def cross_attention(dec, enc, W_q, W_k, W_v, enc_valid_lens=None):
    """Return (output (B, n, d_v), weights (B, n, m)): decoder queries attend to encoder keys."""
    Q = torch.einsum("bnd,dk->bnk", dec, W_q)
    K = torch.einsum("bmd,dk->bmk", enc, W_k)
    V = torch.einsum("bmd,dv->bmv", enc, W_v)

    d_k = W_q.shape[1]
    scores = torch.einsum("bnk,bmk->bnm", Q, K) / math.sqrt(d_k)

    if enc_valid_lens is not None:
        m = enc.shape[1]
        key_idx = torch.arange(m, device=scores.device)
        # (B, 1, m): True where the key is padding; broadcasts over every query
        pad = key_idx[None, None, :] >= enc_valid_lens.to(scores.device)[:, None, None]
        scores = scores.masked_fill(pad, float("-inf"))

    weights = torch.softmax(scores, dim=-1)
    output = torch.einsum("bnm,bmv->bnv", weights, V)
    return output, weights
