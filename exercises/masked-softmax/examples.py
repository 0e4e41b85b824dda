"""Public examples for masked-softmax: small inputs whose answers can be checked by hand."""

import torch

from grader.spec import Case, call, check, zh_names

THIRD = 1 / 3


# Each case's name on a Chinese page (the English name stays the gradebook's key).
ZH_NAMES = {
    'no mask: equal scores give equal weights': '无掩码：分数相等则权重相等',
    '1-D valid lengths [2, 3]: one length per batch row': '一维有效长度 [2, 3]：每个批次行一个长度',
    '2-D valid lengths [[1, 3], [2, 4]]: one length per query': '二维有效长度 [[1, 3], [2, 4]]：每个查询一个长度',
    'hidden keys get weight 0 even when their score is the largest': '被遮蔽的键即使分数最大，权重也为 0',
    'valid length 0 (no key visible): uniform weights, not NaN': '有效长度为 0（看不到任何键）：权重均匀，而不是 NaN',
    'bad input: X must be 3-D': '错误输入：X 必须是三维',
}


@zh_names(ZH_NAMES)
def build(rng: torch.Generator) -> list[Case]:
    X = torch.zeros(2, 2, 4)
    # e^1 / (e^1 + e^0) for a row [1, 0] with both keys visible
    p = 2.718281828459045 / (2.718281828459045 + 1.0)
    return [
        Case("no mask: equal scores give equal weights", 1.0, [
            call("masked_softmax", torch.zeros(1, 1, 4), None,
                 check=check("allclose", label="weights", expected=[[[0.25, 0.25, 0.25, 0.25]]])),
        ]),
        Case("1-D valid lengths [2, 3]: one length per batch row", 1.0, [
            call("masked_softmax", X, torch.tensor([2, 3]), check=check(
                "allclose", label="weights",
                expected=[[[0.5, 0.5, 0, 0], [0.5, 0.5, 0, 0]],
                          [[THIRD, THIRD, THIRD, 0], [THIRD, THIRD, THIRD, 0]]])),
        ]),
        Case("2-D valid lengths [[1, 3], [2, 4]]: one length per query", 1.0, [
            call("masked_softmax", X, torch.tensor([[1, 3], [2, 4]]), check=check(
                "allclose", label="weights",
                expected=[[[1, 0, 0, 0], [THIRD, THIRD, THIRD, 0]],
                          [[0.5, 0.5, 0, 0], [0.25, 0.25, 0.25, 0.25]]])),
        ]),
        Case("hidden keys get weight 0 even when their score is the largest", 1.0, [
            call("masked_softmax", torch.tensor([[[1.0, 0.0, 50.0]]], dtype=torch.float64),
                 torch.tensor([2]),
                 check=check("allclose", label="weights", expected=[[[p, 1 - p, 0.0]]])),
        ]),
        Case("valid length 0 (no key visible): uniform weights, not NaN", 1.0, [
            call("masked_softmax", X, torch.tensor([0, 1]), check=check(
                "allclose", label="weights",
                expected=[[[0.25, 0.25, 0.25, 0.25], [0.25, 0.25, 0.25, 0.25]],
                          [[1, 0, 0, 0], [1, 0, 0, 0]]])),
        ]),
        Case("bad input: X must be 3-D", 1.0, [
            call("masked_softmax", torch.zeros(4, 4), None, raises="ValueError",
                 check=check("raises", label="masked_softmax", expected="ValueError")),
        ]),
    ]
