"""Hidden cases for positional-table: float32 tables of several sizes, scaled embeddings, errors."""

import torch

from grader.spec import Case, again, call, check, get, inputs, ref, returns, zh_names

# The table is float32, so float64 embeddings plus the table are also only float32-accurate.
TOL = {"rtol": 1e-5, "atol": 1e-5}


def _table_case(name, max_len, d_model, points=2.0):
    return Case(name, points, [
        call("positional_encoding", max_len, d_model,
             check=check(label=f"positional_encoding({max_len}, {d_model})", **TOL)),
    ])


TABLE_FAIL = {"en": "`positional_encoding` must return a float32 torch.Tensor (compute in float64 if "
                    "you like, then `.float()`); no numpy.",
              "zh": "`positional_encoding` 必须返回 float32 的 torch.Tensor（可以先用 float64 计算，再 "
                    "`.float()`）；不要返回 numpy。", "mistake": "wrong-return-type"}
ADD_FAIL = {"en": "`add_positions(X)` must return a torch.Tensor with the dtype of `X` (cast the table "
                  "with `.to(X.dtype)`).",
            "zh": "`add_positions(X)` 必须返回 dtype 与 `X` 相同的 torch.Tensor（用 `.to(X.dtype)` 转换表格）。", "mistake": "wrong-return-type"}
UNCHANGED_FAIL = {"en": "`add_positions` changes the caller's `X` in place (`X.mul_()`, `X += ...`, "
                        "`X *= ...`): return a new tensor, `X * math.sqrt(d_model) + P`.",
                  "zh": "`add_positions` 原地修改了调用者的 `X`（`X.mul_()`、`X += ...`、`X *= ...`）："
                        "请返回新张量 `X * math.sqrt(d_model) + P`。", "mistake": "changes-input"}


# Each case's name on a Chinese page (the English name stays the gradebook's key).
ZH_NAMES = {
    'table, 6 positions, d_model 4': '编码表，6 个位置，d_model 4',
    'table, 50 positions, d_model 16': '编码表，50 个位置，d_model 16',
    'table, 100 positions, d_model 64': '编码表，100 个位置，d_model 64',
    'table, 7 positions, d_model 6': '编码表，7 个位置，d_model 6',
    'table, d_model 2 (a single pair)': '编码表，d_model 2（只有一对）',
    'table, one position (max_len 1)': '编码表，只有一个位置（max_len 1）',
    'add_positions, float32, batch 3 < T 5, d_model 8': 'add_positions，float32，批大小 3 < T 5，d_model 8',
    'add_positions, float64, batch 6 > T 2, d_model 10': 'add_positions，float64，批大小 6 > T 2，d_model 10',
    'types: a float32 table, add_positions keeps the dtype of X': '类型：float32 的编码表，add_positions 保持 X 的 dtype',
    'add_positions leaves X unchanged': 'add_positions 不修改 X',
    'bad input: odd d_model': '错误输入：d_model 为奇数',
    'bad input: max_len < 1': '错误输入：max_len < 1',
    'bad input: d_model < 2': '错误输入：d_model < 2',
}


@zh_names(ZH_NAMES)
def build(rng: torch.Generator) -> list[Case]:
    def randn(*shape, dtype):
        return torch.randn(*shape, generator=rng, dtype=torch.float64).to(dtype)

    x32 = randn(3, 5, 8, dtype=torch.float32)
    x64 = randn(6, 2, 10, dtype=torch.float64)
    return [
        _table_case("table, 6 positions, d_model 4", 6, 4),
        _table_case("table, 50 positions, d_model 16", 50, 16),
        _table_case("table, 100 positions, d_model 64", 100, 64),
        _table_case("table, 7 positions, d_model 6", 7, 6),
        _table_case("table, d_model 2 (a single pair)", 9, 2, points=1.0),
        # max_len 1 is legal (the statement refuses max_len < 1): a table of one row, row 0
        _table_case("table, one position (max_len 1)", 1, 8, points=1.0),
        Case("add_positions, float32, batch 3 < T 5, d_model 8", 1.0, [
            call("add_positions", x32, check=check(label="add_positions(X)", **TOL)),
        ]),
        Case("add_positions, float64, batch 6 > T 2, d_model 10", 1.0, [
            call("add_positions", x64, check=check(label="add_positions(X)", **TOL)),
        ]),
        Case("types: a float32 table, add_positions keeps the dtype of X", 1.0, [
            get("positional_encoding", save="pe"),
            *returns(ref("pe"), 6, 4, label="positional_encoding", fail=TABLE_FAIL),
            get("add_positions", save="add"),
            *returns(ref("add"), randn(2, 3, 4, dtype=torch.float64), label="add_positions",
                     fail=ADD_FAIL),
        ]),
        # The same X twice: X scaled or shifted in place changes the second answer.
        Case("add_positions leaves X unchanged", 1.0, again(
            "add_positions", inputs(same := randn(2, 4, 6, dtype=torch.float32)), inputs(same),
            check=check(label="add_positions(X)", **TOL), fail=UNCHANGED_FAIL)),
        Case("bad input: odd d_model", 1.0, [
            call("positional_encoding", 5, 7, raises="ValueError"),
        ]),
        Case("bad input: max_len < 1", 1.0, [
            call("positional_encoding", 0, 8, raises="ValueError"),
        ]),
        # even but smaller than 2 (blind set 2026-12-07: an odd-only check passed everything)
        Case("bad input: d_model < 2", 1.0, [
            call("positional_encoding", 5, 0, raises="ValueError"),
        ]),
    ]
