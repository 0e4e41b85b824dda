"""Hidden cases for positional-table: float32 tables of several sizes, scaled embeddings, errors."""

import torch

from grader.authoring import case, draw, outputs, tol
from grader.spec import again, call, check, get, inputs, ref, returns

TABLE_FAIL = {"en": "`positional_encoding` must return a float32 torch.Tensor (compute in float64 if "
                    "you like, then `.float()`); no numpy.",
              "zh": "`positional_encoding` 必须返回 float32 的 torch.Tensor（可以先用 float64 计算，再 "
                    "`.float()`）；不要返回 numpy。", "mistake": "wrong-return-type"}
ADD_FAIL = {"en": "`add_positions(X)` must return a torch.Tensor with the dtype of `X` (cast the table "
                  "with `.to(X.dtype)`).",
            "zh": "`add_positions(X)` 必须返回 dtype 与 `X` 相同的 torch.Tensor（用 `.to(X.dtype)` 转换表格）。",
            "mistake": "wrong-return-type"}
UNCHANGED_FAIL = {"en": "`add_positions` changes the caller's `X` in place (`X.mul_()`, `X += ...`, "
                        "`X *= ...`): return a new tensor, `X * math.sqrt(d_model) + P`.",
                  "zh": "`add_positions` 原地修改了调用者的 `X`（`X.mul_()`、`X += ...`、`X *= ...`）："
                        "请返回新张量 `X * math.sqrt(d_model) + P`。", "mistake": "changes-input"}


def table(max_len, d_model):  # a float32 table, within float32's tolerance
    return outputs("positional_encoding", max_len, d_model,
                   labels=(f"positional_encoding({max_len}, {d_model})",))


def added(X):
    # The table is float32, so float64 embeddings plus the table are also only float32-accurate.
    return outputs("add_positions", X, labels=("add_positions(X)",), tol={"atol": 1e-5})


def build(rng: torch.Generator) -> list:
    randn = draw(rng)

    x32 = randn(3, 5, 8, dtype=torch.float32)
    x64 = randn(6, 2, 10, dtype=torch.float64)
    return [
        case(("table, 6 positions, d_model 4", "编码表，6 个位置，d_model 4"), 2.0, *table(6, 4)),
        case(("table, 50 positions, d_model 16", "编码表，50 个位置，d_model 16"), 2.0, *table(50, 16)),
        case(("table, 100 positions, d_model 64", "编码表，100 个位置，d_model 64"), 2.0, *table(100, 64)),
        case(("table, 7 positions, d_model 6", "编码表，7 个位置，d_model 6"), 2.0, *table(7, 6)),
        case(("table, d_model 2 (a single pair)", "编码表，d_model 2（只有一对）"), 1.0, *table(9, 2)),
        # max_len 1 is legal (the statement refuses max_len < 1): a table of one row, row 0
        case(("table, one position (max_len 1)", "编码表，只有一个位置（max_len 1）"), 1.0, *table(1, 8)),
        case(("add_positions, float32, batch 3 < T 5, d_model 8",
              "add_positions，float32，批大小 3 < T 5，d_model 8"), 1.0, *added(x32)),
        case(("add_positions, float64, batch 6 > T 2, d_model 10",
              "add_positions，float64，批大小 6 > T 2，d_model 10"), 1.0, *added(x64)),
        # Two functions, and the table float32 whatever the inputs: not the one-function contract.
        case(("types: a float32 table, add_positions keeps the dtype of X",
              "类型：float32 的编码表，add_positions 保持 X 的 dtype"), 1.0,
             get("positional_encoding", save="pe"),
             *returns(ref("pe"), 6, 4, label="positional_encoding", fail=TABLE_FAIL),
             get("add_positions", save="add"),
             *returns(ref("add"), randn(2, 3, 4, dtype=torch.float64), label="add_positions",
                      fail=ADD_FAIL)),
        # The same X twice: X scaled or shifted in place changes the second answer.
        case(("add_positions leaves X unchanged", "add_positions 不修改 X"), 1.0,
             *again("add_positions", inputs(same := randn(2, 4, 6, dtype=torch.float32)), inputs(same),
                    check=check(label="add_positions(X)", **tol(torch.float32)), fail=UNCHANGED_FAIL)),
        case(("bad input: odd d_model", "错误输入：d_model 为奇数"), 1.0,
             call("positional_encoding", 5, 7, raises="ValueError")),
        case(("bad input: max_len < 1", "错误输入：max_len < 1"), 1.0,
             call("positional_encoding", 0, 8, raises="ValueError")),
        # even but smaller than 2 (blind set 2026-12-07: an odd-only check passed everything)
        case(("bad input: d_model < 2", "错误输入：d_model < 2"), 1.0,
             call("positional_encoding", 5, 0, raises="ValueError")),
    ]
