import math

import torch


def _stable_softmax(row):
    # subtract the max first so exp never overflows
    row = row - row.max()
    e = torch.exp(row)
    return e / e.sum()


def cross_attention(dec, enc, W_q, W_k, W_v, enc_valid_lens=None):
    """Return (output (B, n, d_v), weights (B, n, m)): decoder queries attend to encoder keys."""
    B, n, _ = dec.shape
    m = enc.shape[1]
    d_k = W_q.shape[1]
    d_v = W_v.shape[1]
    scale = 1.0 / math.sqrt(d_k)
    neg = torch.finfo(dec.dtype).min

    output = torch.zeros(B, n, d_v, dtype=dec.dtype, device=dec.device)
    weights = torch.zeros(B, n, m, dtype=dec.dtype, device=dec.device)

    for b in range(B):
        K = enc[b] @ W_k          # (m, d_k)
        V = enc[b] @ W_v          # (m, d_v)
        valid = m if enc_valid_lens is None else int(enc_valid_lens[b])
        for i in range(n):
            q = dec[b, i] @ W_q   # (d_k,)
            s = (K @ q) * scale   # (m,)
            if valid < m:
                s = s.clone()
                s[valid:] = neg
            w = _stable_softmax(s)
            weights[b, i] = w
            output[b, i] = w @ V
    return output, weights
