import math

import torch


def cross_attention(dec, enc, W_q, W_k, W_v, enc_valid_lens=None):
    """Return (output (B, n, d_v), weights (B, n, m)): decoder queries attend to encoder keys."""
    Q = dec @ W_q
    K = enc @ W_k
    V = enc @ W_v
    d_k = W_q.shape[1]

    scores = Q @ K.transpose(-1, -2) / math.sqrt(d_k)  # (B, n, m)

    if enc_valid_lens is not None:
        B, n, m = scores.shape
        idx = torch.arange(n, device=scores.device).view(1, n, 1)
        mask = idx >= enc_valid_lens.view(B, 1, 1)
        scores = scores.masked_fill(mask, torch.finfo(scores.dtype).min)

    weights = torch.softmax(scores, dim=-1)
    output = weights @ V
    return output, weights
