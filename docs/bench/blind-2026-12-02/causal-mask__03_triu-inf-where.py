import math

import torch
import torch.nn.functional as F

# 因果掩码：第 i 个位置只能看到 0..i


def causal_mask(n):
    if n < 1:
        raise ValueError("n 必须 >= 1")
    upper = torch.triu(torch.ones(n, n), diagonal=1)  # 对角线以上为 1
    return upper == 0


def causal_attention(Q, K, V):
    if not (Q.size(-2) == K.size(-2) == V.size(-2)):
        raise ValueError("Q/K/V 的长度 n 不一致")
    if Q.size(-1) != K.size(-1):
        raise ValueError("Q 与 K 的 d 不一致")
    d = Q.size(-1)
    s = torch.matmul(Q, K.transpose(-1, -2)) / math.sqrt(d)
    m = causal_mask(Q.size(-2)).to(Q.device)
    s = torch.where(m, s, torch.tensor(float("-inf"), dtype=s.dtype))
    w = F.softmax(s, dim=-1)
    print("weights shape", tuple(w.shape))
    return torch.matmul(w, V), w
