"""Public examples for causal-mask: a 3x3 mask and equal scores, whose answers are running means."""

import numpy as np
import torch

from grader.spec import Case, call, check, zh_names

# Each case's name on a Chinese page (the English name stays the gradebook's key).
ZH_NAMES = {
    'causal_mask(3): True on and below the diagonal': 'causal_mask(3)：对角线及其下方为 True',
    'equal scores: weights spread evenly over the past': '分数相等：权重平均分配给过去的位置',
    'the first token attends only to itself': '第一个词元只关注自己',
    'bad input: n must be at least 1': '错误输入：n 至少为 1',
}


@zh_names(ZH_NAMES)
def build(rng: torch.Generator) -> list[Case]:
    Q = torch.zeros(1, 3, 2)
    V = torch.tensor([[[3.0], [6.0], [9.0]]])
    half, third = 1 / 2, 1 / 3
    return [
        Case("causal_mask(3): True on and below the diagonal", 1.0, [
            call("causal_mask", 3, check=check("equal", label="causal_mask(3)", expected=np.array(
                [[True, False, False], [True, True, False], [True, True, True]]))),
        ]),
        Case("equal scores: weights spread evenly over the past", 1.0, [
            call("causal_attention", Q, Q, V, check=check(
                label="weights", select=1, atol=1e-6,
                expected=[[[1, 0, 0], [half, half, 0], [third, third, third]]])),
            call("causal_attention", Q, Q, V, check=check(
                label="output", select=0, atol=1e-5, expected=[[[3.0], [4.5], [6.0]]])),
        ]),
        Case("the first token attends only to itself", 1.0, [
            call("causal_attention", torch.tensor([[[1.0], [5.0]]]), torch.tensor([[[1.0], [5.0]]]),
                 torch.tensor([[[10.0], [20.0]]]),
                 check=check(label="output", select=0, atol=1e-5, expected=[[[10.0], [
                     # query 1 sees keys 0 and 1 with scores 5 and 25: weight e^20/(e^5+e^20)
                     10.0 + 10.0 / (1.0 + 2.718281828459045 ** -20)]]])),
        ]),
        Case("bad input: n must be at least 1", 1.0, [
            call("causal_mask", 0, raises="ValueError",
                 check=check("raises", label="causal_mask", expected="ValueError")),
        ]),
    ]
