"""Public examples for permutation-invariance: the worked table and two small layers."""

import torch

from grader.spec import Case, call, check, fixture, ref, zh_names

TABLE = [[0.0, 1.0, 0.0, 1.0], [0.8415, 0.5403, 0.0100, 0.9999], [0.9093, -0.4161, 0.0200, 0.9998],
         [0.1411, -0.9900, 0.0300, 0.9996], [-0.7568, -0.6536, 0.0400, 0.9992]]


# Each case's name on a Chinese page (the English name stays the gradebook's key).
ZH_NAMES = {
    'positional table, d_model 4 (the worked example)': '位置编码表，d_model 4（讲解中的例子）',
    'odd d_model raises ValueError': 'd_model 为奇数时抛出 ValueError',
    'a per-token linear layer is equivariant': '逐词元线性层是置换等变的',
    'a running sum is not': '累加和不是置换等变的',
}


@zh_names(ZH_NAMES)
def build(rng: torch.Generator) -> list[Case]:
    x = torch.arange(30, dtype=torch.float32).reshape(2, 5, 3) / 10
    w = torch.eye(3) * 2.0
    return [
        Case("positional table, d_model 4 (the worked example)", 1, [
            call("sinusoidal_positional_encoding", 5, 4,
                 check=check(label="table", atol=1e-4, expected=TABLE))]),
        Case("odd d_model raises ValueError", 1, [
            call("sinusoidal_positional_encoding", 5, 3, raises="ValueError",
                 check=check("raises", label="sinusoidal_positional_encoding", expected="ValueError"))]),
        Case("a per-token linear layer is equivariant", 1, [
            fixture("token_linear", save="layer", weight=w, bias=torch.ones(3)),
            call("is_permutation_equivariant", ref("layer"), x, [4, 3, 2, 1, 0],
                 check=check("equal", label="answer", expected=True))]),
        Case("a running sum is not", 1, [
            fixture("cumulative_sum", save="layer"),
            call("is_permutation_equivariant", ref("layer"), x, [0, 2, 1, 4, 3],
                 check=check("equal", label="answer", expected=False))]),
    ]
