"""Public examples for manual-attention: the lesson's worked numbers."""

import torch

from grader.spec import Case, call, check, get, zh_names

Q = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
V = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]])
SCORES = [[1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [1.0, 1.0, 2.0]]
WEIGHTS = [[0.4223, 0.1554, 0.4223], [0.1554, 0.4223, 0.4223], [0.2119, 0.2119, 0.5761]]
CONTEXT = [5.0, 6.0, 7.0, 8.0]


# Each case's name on a Chinese page (the English name stays the gradebook's key).
ZH_NAMES = {
    'scores': 'scores（分数）',
    'weights': 'weights（权重）',
    'context of the first token': '第一个词元的上下文向量',
    "attention(Q, K, V) on the lesson's matrices": '在课程的矩阵上运行 attention(Q, K, V)',
}


@zh_names(ZH_NAMES)
def build(rng: torch.Generator) -> list[Case]:
    full_context = [[5.0, 6.0, 7.0, 8.0], [6.0678, 7.0678, 8.0678, 9.0678],
                    [6.4567, 7.4567, 8.4567, 9.4567]]
    return [
        Case("scores", 1, [get("scores", check=check(label="scores", atol=1e-3, expected=SCORES))]),
        Case("weights", 1, [get("weights", check=check(label="weights", atol=1e-3, expected=WEIGHTS))]),
        Case("context of the first token", 1,
             [get("context", check=check(label="context", atol=1e-3, expected=CONTEXT))]),
        Case("attention(Q, K, V) on the lesson's matrices", 1, [
            call("attention", Q, Q.clone(), V,
                 check=check(label="weights", select=1, atol=1e-3, expected=WEIGHTS)),
            call("attention", Q, Q.clone(), V,
                 check=check(label="context", select=0, atol=1e-3, expected=full_context)),
        ]),
    ]
