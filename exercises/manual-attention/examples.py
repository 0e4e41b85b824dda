"""Public examples for manual-attention, worked by hand on matrices of their own.

Part A's answers (the scores, weights and first context vector of the statement's Q, K, V)
are not printed here: the hidden tests check exactly those values, so printing them would
hand out half the exercise (issue 19, F7). Part A is checked when you submit; these examples
check `attention` on other matrices whose answers you can work out the same way.
"""

import math

import torch

from grader.spec import Case, call, check, zh_names

# Two queries, three keys, d_k = 4: the scores Q·Kᵀ/2 are 2 where a query meets its own key.
Q = torch.tensor([[2.0, 0.0, 0.0, 0.0], [0.0, 2.0, 0.0, 0.0]])
K = torch.tensor([[2.0, 0.0, 0.0, 0.0], [0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 2.0, 0.0]])
V = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
_big, _small = math.e**2 / (math.e**2 + 2), 1 / (math.e**2 + 2)  # softmax of [2, 0, 0]
WEIGHTS = [[_big, _small, _small], [_small, _big, _small]]
CONTEXT = [[_big + _small, 2 * _small], [2 * _small, _big + _small]]

# Each case's name on a Chinese page (the English name stays the gradebook's key).
ZH_NAMES = {
    "attention(Q, K, V): weights, two queries and three keys": "attention(Q, K, V)：权重，两个查询、三个键",
    "attention(Q, K, V): context": "attention(Q, K, V)：上下文向量",
}


@zh_names(ZH_NAMES)
def build(rng: torch.Generator) -> list[Case]:
    return [
        Case("attention(Q, K, V): weights, two queries and three keys", 1, [
            call("attention", Q, K, V, check=check(label="weights", select=1, atol=1e-3, expected=WEIGHTS)),
        ]),
        Case("attention(Q, K, V): context", 1, [
            call("attention", Q, K, V, check=check(label="context", select=0, atol=1e-3, expected=CONTEXT)),
        ]),
    ]
