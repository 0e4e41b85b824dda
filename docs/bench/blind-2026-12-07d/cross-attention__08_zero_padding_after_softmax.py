import math

import torch


def cross_attention(dec, enc, W_q, W_k, W_v, enc_valid_lens=None):
    """Return (output (B, n, d_v), weights (B, n, m)): decoder queries attend to encoder keys."""
    Q = dec @ W_q
    K = enc @ W_k
    V = enc @ W_v
    d_k = W_q.shape[1]

    scores = Q @ K.transpose(1, 2) / math.sqrt(d_k)
    weights = torch.softmax(scores, dim=-1)

    if enc_valid_lens is not None:
        m = scores.shape[-1]
        real = (torch.arange(m, device=scores.device)[None, :] < enc_valid_lens[:, None]).to(weights.dtype)
        weights = weights * real[:, None, :]   # padding keys get weight 0

    output = weights @ V
    return output, weights
