import math

import torch


def cross_attention(dec, enc, W_q, W_k, W_v, enc_valid_lens=None):
    """Return (output (B, n, d_v), weights (B, n, m)): decoder queries attend to encoder keys."""
    Q = dec @ W_q  # (B, n, d_k)
    K = enc @ W_k  # (B, m, d_k)
    V = enc @ W_v  # (B, m, d_v)

    d = dec.shape[-1]
    scores = torch.matmul(Q, K.transpose(1, 2)) / math.sqrt(d)

    if enc_valid_lens is not None:
        m = K.shape[1]
        mask = torch.arange(m, device=scores.device).unsqueeze(0) < enc_valid_lens.unsqueeze(1)  # (B, m)
        scores = scores.masked_fill(~mask.unsqueeze(1), torch.finfo(scores.dtype).min)

    weights = torch.softmax(scores, dim=-1)
    return weights @ V, weights
