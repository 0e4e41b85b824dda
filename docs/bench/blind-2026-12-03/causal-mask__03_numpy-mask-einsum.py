import math

import numpy as np
import torch


def causal_mask(n):
    # numpy 生成下三角（含对角线），再转成 torch.bool
    if n < 1:
        raise ValueError("n 必须 >= 1")
    m = np.tril(np.ones((n, n), dtype=bool))
    return torch.from_numpy(m)


def causal_attention(Q, K, V):
    if not (Q.shape[-2] == K.shape[-2] == V.shape[-2]):
        raise ValueError("Q/K/V 的长度 n 不一致")
    if Q.shape[-1] != K.shape[-1]:
        raise ValueError("Q 和 K 的最后一维 d 不一致")
    n = Q.shape[-2]
    d = Q.shape[-1]
    s = torch.einsum("...id,...jd->...ij", Q, K) / math.sqrt(d)
    s = s.masked_fill(causal_mask(n).logical_not(), -1e9)
    w = torch.softmax(s, dim=-1)
    out = torch.einsum("...ij,...jv->...iv", w, V)
    return out, w
