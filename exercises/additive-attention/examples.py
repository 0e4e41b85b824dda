"""Public examples for additive-attention: one hidden unit, so every score is w_v * tanh(sum)."""

import math

import torch

from grader.spec import Case, call, check, zh_names

# Each case's name on a Chinese page (the English name stays the gradebook's key).
ZH_NAMES = {
    'scores: w_v * tanh(W_q q + W_k k) with h = 1': '分数：w_v * tanh(W_q q + W_k k)，h = 1',
    'attention: softmax of the scores, then the weighted sum of v': '注意力：对分数做 softmax，再对 v 加权求和',
    'valid_lens = [1]: the second key is padding': 'valid_lens = [1]：第二个键是填充',
    'bad input: W_q must have d_q columns': '错误输入：W_q 必须有 d_q 列',
}


@zh_names(ZH_NAMES)
def build(rng: torch.Generator) -> list[Case]:
    q = torch.tensor([[[1.0, 0.0]]], dtype=torch.float64)  # (1, 1, 2)
    k = torch.tensor([[[0.0], [2.0]]], dtype=torch.float64)  # (1, 2, 1)
    v = torch.tensor([[[10.0], [20.0]]], dtype=torch.float64)  # (1, 2, 1)
    W_q = torch.tensor([[1.0, 0.0]], dtype=torch.float64)
    W_k = torch.tensor([[1.0]], dtype=torch.float64)
    w_v = torch.tensor([2.0], dtype=torch.float64)
    s0, s1 = 2 * math.tanh(1.0), 2 * math.tanh(3.0)
    p0 = 1 / (1 + math.exp(s1 - s0))
    return [
        Case("scores: w_v * tanh(W_q q + W_k k) with h = 1", 1.0, [
            call("additive_scores", q, k, W_q, W_k, w_v,
                 check=check(label="scores", atol=1e-6, expected=[[[s0, s1]]])),
        ]),
        Case("attention: softmax of the scores, then the weighted sum of v", 1.0, [
            call("additive_attention", q, k, v, W_q, W_k, w_v,
                 check=check(label="weights", select=1, atol=1e-6, expected=[[[p0, 1 - p0]]])),
            call("additive_attention", q, k, v, W_q, W_k, w_v,
                 check=check(label="context", select=0, atol=1e-6,
                             expected=[[[10 * p0 + 20 * (1 - p0)]]])),
        ]),
        Case("valid_lens = [1]: the second key is padding", 1.0, [
            call("additive_attention", q, k, v, W_q, W_k, w_v, valid_lens=torch.tensor([1]),
                 check=check(label="weights", select=1, atol=1e-6, expected=[[[1.0, 0.0]]])),
        ]),
        Case("bad input: W_q must have d_q columns", 1.0, [
            call("additive_scores", q, k, W_k, W_k, w_v, raises="ValueError",
                 check=check("raises", label="additive_scores", expected="ValueError")),
        ]),
    ]
