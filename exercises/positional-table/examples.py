"""Public examples for positional-table: the worked d_model = 4 table and a ones embedding."""

import torch

from grader.spec import Case, call, check, zh_names

# The lesson's worked table: d_model = 4, frequencies 1 and 1/100 (rounded to 4 decimals).
TABLE_4 = [
    [0.0000, 1.0000, 0.0000, 1.0000],
    [0.8415, 0.5403, 0.0100, 0.9999],
    [0.9093, -0.4161, 0.0200, 0.9998],
    [0.1411, -0.9900, 0.0300, 0.9996],
    [-0.7568, -0.6536, 0.0400, 0.9992],
]

# Each case's name on a Chinese page (the English name stays the gradebook's key).
ZH_NAMES = {
    'the d_model = 4 table, 5 positions': 'd_model = 4 的编码表，5 个位置',
    'add_positions: ones * sqrt(4) plus the table': 'add_positions：全 1 乘以 sqrt(4) 再加编码表',
    'row 0 is sin(0), cos(0) in every pair': '第 0 行每一对都是 sin(0)、cos(0)',
    'bad input: d_model must be even': '错误输入：d_model 必须是偶数',
}


@zh_names(ZH_NAMES)
def build(rng: torch.Generator) -> list[Case]:
    ones = torch.ones(1, 2, 4, dtype=torch.float64)
    return [
        Case("the d_model = 4 table, 5 positions", 1.0, [
            call("positional_encoding", 5, 4,
                 check=check(label="positional_encoding(5, 4)", atol=1e-4, expected=TABLE_4)),
        ]),
        Case("add_positions: ones * sqrt(4) plus the table", 1.0, [
            call("add_positions", ones, check=check(
                label="add_positions(X)", atol=1e-4,
                expected=[[[2 + v for v in row] for row in TABLE_4[:2]]])),
        ]),
        Case("row 0 is sin(0), cos(0) in every pair", 1.0, [
            call("positional_encoding", 1, 8, check=check(
                label="positional_encoding(1, 8)", atol=1e-7,
                expected=[[0.0, 1.0] * 4])),
        ]),
        Case("bad input: d_model must be even", 1.0, [
            call("positional_encoding", 5, 3, raises="ValueError",
                 check=check("raises", label="positional_encoding", expected="ValueError")),
        ]),
    ]
