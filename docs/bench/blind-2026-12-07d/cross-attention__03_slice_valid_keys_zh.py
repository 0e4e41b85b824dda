"""交叉注意力：查询来自解码器，键和值来自编码器。"""

import math

import torch


def _project(x, W):
    # x: (B, L, d), W: (d, e) -> (B, L, e)
    return torch.matmul(x, W)


def cross_attention(dec, enc, W_q, W_k, W_v, enc_valid_lens=None):
    """Return (output (B, n, d_v), weights (B, n, m)): decoder queries attend to encoder keys."""
    Q = _project(dec, W_q)  # 查询 (B, n, d_k)
    K = _project(enc, W_k)  # 键   (B, m, d_k)
    V = _project(enc, W_v)  # 值   (B, m, d_v)

    d_k = Q.shape[-1]
    scores = torch.bmm(Q, K.transpose(1, 2)) / math.sqrt(d_k)  # (B, n, m)

    if enc_valid_lens is None:
        weights = torch.softmax(scores, dim=-1)
    else:
        # 每个句子只在真实的编码器词元上做 softmax，填充位置的权重保持为 0
        weights = torch.zeros_like(scores)
        for b in range(scores.shape[0]):
            L = int(enc_valid_lens[b])
            weights[b, :, :L] = torch.softmax(scores[b, :, :L], dim=-1)

    output = torch.bmm(weights, V)  # (B, n, d_v)
    return output, weights
