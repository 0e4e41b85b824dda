"""Reference solution for cross-attention: queries from the decoder, keys and values from the encoder."""

import math

import torch


def cross_attention(dec, enc, W_q, W_k, W_v, enc_valid_lens=None):
    """Return (output (B, n, d_v), weights (B, n, m)): decoder queries attend to encoder keys."""
    Q, K, V = dec @ W_q, enc @ W_k, enc @ W_v  # (B, n, d_k), (B, m, d_k), (B, m, d_v)
    scores = Q @ K.transpose(1, 2) / math.sqrt(W_q.shape[1])  # (B, n, m)
    if enc_valid_lens is not None:
        padded = torch.arange(scores.shape[-1])[None, None, :] >= enc_valid_lens[:, None, None]  # (B, 1, m)
        scores = scores.masked_fill(padded, torch.finfo(scores.dtype).min)
    weights = torch.softmax(scores, dim=-1)  # each decoder query's distribution over the keys
    return weights @ V, weights  # (B, n, d_v), (B, n, m)
