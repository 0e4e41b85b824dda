import math

import torch


def cross_attention(dec, enc, W_q, W_k, W_v, enc_valid_lens=None):
    """Return (output (B, n, d_v), weights (B, n, m)): decoder queries attend to encoder keys."""
    Q = dec @ W_q
    K = dec @ W_k
    V = dec @ W_v

    d_k = W_q.shape[1]
    scores = Q @ K.transpose(-2, -1) / math.sqrt(d_k)

    if enc_valid_lens is not None:
        positions = torch.arange(scores.shape[-1], device=scores.device)
        mask = positions[None, None, :] >= enc_valid_lens[:, None, None]
        scores = scores.masked_fill(mask, torch.finfo(scores.dtype).min)

    weights = torch.softmax(scores, dim=-1)
    output = weights @ V
    return output, weights
