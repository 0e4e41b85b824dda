"""Public examples for nadaraya-watson: three keys at 0, 1, 2, answers computed by hand."""

import math

import torch

from grader.spec import Case, call, check, zh_names

# Each case's name on a Chinese page (the English name stays the gradebook's key).
ZH_NAMES = {
    'query halfway: symmetric weights, prediction 2': '查询位于正中间：权重对称，预测为 2',
    'two queries at once, each row sums to 1': '同时两个查询，每行之和为 1',
    'w = 2: a narrower kernel puts more weight on the nearest key': 'w = 2：更窄的核把更多权重给最近的键',
    'bad input: one y per x': '错误输入：每个 x 对应一个 y',
}


@zh_names(ZH_NAMES)
def build(rng: torch.Generator) -> list[Case]:
    xk = torch.tensor([0.0, 1.0, 2.0], dtype=torch.float64)
    yv = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
    a = math.exp(-0.5)
    mid = [a / (1 + 2 * a), 1 / (1 + 2 * a), a / (1 + 2 * a)]  # query 1: distances -1, 0, 1
    z = 1 + a + math.exp(-2.0)
    left = [1 / z, a / z, math.exp(-2.0) / z]  # query 0: distances 0, -1, -2
    # w = 2 doubles every distance: query 1 sees scores -2, 0, -2
    b = math.exp(-2.0)
    mid_w2 = [b / (1 + 2 * b), 1 / (1 + 2 * b), b / (1 + 2 * b)]
    return [
        Case("query halfway: symmetric weights, prediction 2", 1.0, [
            call("nw_predict", torch.tensor([1.0], dtype=torch.float64), xk, yv,
                 check=check(label="attention", select=1, atol=1e-6, expected=[mid])),
            call("nw_predict", torch.tensor([1.0], dtype=torch.float64), xk, yv,
                 check=check(label="pred", select=0, atol=1e-6, expected=[2.0])),
        ]),
        Case("two queries at once, each row sums to 1", 1.0, [
            call("nw_predict", torch.tensor([1.0, 0.0], dtype=torch.float64), xk, yv,
                 check=check(label="attention", select=1, atol=1e-6, expected=[mid, left])),
        ]),
        Case("w = 2: a narrower kernel puts more weight on the nearest key", 1.0, [
            call("nw_predict", torch.tensor([1.0], dtype=torch.float64), xk, yv, 2.0,
                 check=check(label="attention", select=1, atol=1e-6, expected=[mid_w2])),
        ]),
        Case("bad input: one y per x", 1.0, [
            call("nw_predict", torch.tensor([1.0]), torch.tensor([0.0, 1.0]), torch.tensor([1.0]),
                 raises="ValueError", check=check("raises", label="nw_predict", expected="ValueError")),
        ]),
    ]
