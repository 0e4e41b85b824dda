"""Hidden cases for causal-mask: exact masks, 3-D and 4-D attention in both dtypes, errors."""

import torch

from grader.authoring import case, draw, picked, tol
from grader.spec import again, call, check, get, inputs, ref, returns

TYPES_FAIL = {"en": "`causal_attention` must return torch tensors `(output, weights)` with the dtype "
                    "of `Q` (not numpy, not another float type), and `causal_mask` a tensor of "
                    "dtype torch.bool (True = may attend).",
              "zh": "`causal_attention` 必须返回 dtype 与 `Q` 相同的 torch 张量 `(output, weights)`"
                    "（不要返回 numpy，也不要换成别的浮点类型），`causal_mask` 必须返回 dtype 为 torch.bool 的"
                    "张量（True 表示可以关注）。", "mistake": "wrong-return-type"}
TYPES32_FAIL = {"en": "`causal_attention` must keep the dtype of `Q`: float32 `Q`, `K`, `V` give float32 "
                      "`(output, weights)`, not float64 (no `.double()` on the inputs or the result) and not numpy.",
                "zh": "`causal_attention` 必须保持 `Q` 的 dtype：float32 的 `Q`、`K`、`V` 应得到 float32 的 "
                      "`(output, weights)`，而不是 float64（不要对输入或结果 `.double()`），也不要返回 numpy。",
                "mistake": "wrong-return-type"}
UNCHANGED_FAIL = {"en": "`causal_attention` changes the caller's `Q`, `K` or `V` in place (`+=`, `/=`, `.div_()`, "
                        "`masked_fill_`...): compute on new tensors and leave the inputs as they were.",
                  "zh": "`causal_attention` 原地修改了调用者传入的张量（`+=`、`/=`、`.div_()`、`masked_fill_` 等）："
                        "请在新张量上计算，不要改动输入。", "mistake": "changes-input"}

LARGE_HINT = {"en": "Large dot products: block the future scores first, then one stable "
                    "softmax (torch.softmax). A hand-written exp overflows, and masking or "
                    "renormalising after the softmax can divide 0 by 0.",
              "zh": "点积很大：先屏蔽未来位置的分数，再做一次数值稳定的 softmax（torch.softmax）。"
                    "手写的 exp 会溢出；在 softmax 之后再屏蔽或重新归一化可能出现 0 除以 0。"}
ORDER = ((1, "weights"), (0, "output"))  # the weights first: the earlier stage is the one named
f32, f64 = torch.float32, torch.float64


def _future_dominates(randn):
    """Q, K (3, 4, 16) whose scores grow by thousands with the key index: every future key
    outscores the allowed ones, so a softmax taken before masking underflows to 0 on the
    allowed keys (and renormalising after it divides 0 by 0), whatever the seed."""
    u = torch.nn.functional.normalize(randn(16, dtype=torch.float64), dim=0)  # (16,)
    steps = torch.arange(1, 5, dtype=torch.float64).view(1, 4, 1)  # (1, 4, 1)
    Q = randn(3, 4, 16, dtype=torch.float64, scale=20.0) + 60.0 * u
    K = randn(3, 4, 16, dtype=torch.float64, scale=20.0) + 60.0 * steps * u
    return Q, K



def build(rng: torch.Generator) -> list:
    randn = draw(rng)

    def masks(*sizes):
        return [call("causal_mask", n, check=check("equal", label=f"causal_mask({n})")) for n in sizes]

    def attend(Q, K, V):  # values only: dtype and return types are graded once, in their own case
        return picked("causal_attention", Q, K, V, order=ORDER)

    def bad(Q, K, V):
        return call("causal_attention", Q, K, V, raises="ValueError")

    return [
        case(("mask for n = 2 and n = 5", "n = 2 和 n = 5 的掩码"), 1.0, *masks(2, 5)),
        case(("mask for n = 1, 9 and 16", "n = 1、9 和 16 的掩码"), 1.0, *masks(1, 9, 16)),
        case(("3-D, float32, batch 5 > n 3", "三维，float32，批大小 5 > n 3"), 2.0,
             *attend(randn(5, 3, 4), randn(5, 3, 4), randn(5, 3, 4))),
        case(("3-D, float64, batch 2 < n 6, d_v != d", "三维，float64，批大小 2 < n 6，d_v != d"), 2.0,
             *attend(randn(2, 6, 8, dtype=f64), randn(2, 6, 8, dtype=f64), randn(2, 6, 3, dtype=f64))),
        case(("4-D (batch, heads, n, d), float32", "四维 (batch, heads, n, d)，float32"), 1.0,
             *attend(randn(2, 3, 5, 4), randn(2, 3, 5, 4), randn(2, 3, 5, 6))),
        case(("types: torch tensors in the dtype of Q, a bool mask; inputs left unchanged",
              "类型：dtype 与 Q 相同的 torch 张量、bool 掩码；输入不被修改"), 1.0,
             get("causal_attention", save="f"),
             *returns(ref("f"), randn(2, 3, 4, dtype=f64), randn(2, 3, 4, dtype=f64),
                      randn(2, 3, 2, dtype=f64), items=2, label="causal_attention", fail=TYPES_FAIL),
             *returns(ref("f"), randn(2, 3, 4), randn(2, 3, 4), randn(2, 3, 2), items=2,
                      label="causal_attention", fail=TYPES32_FAIL),
             get("causal_mask", save="mask"),
             *returns(ref("mask"), 4, label="causal_mask", fail=TYPES_FAIL),
             # The same Q, K, V twice: Q divided or V centred in place changes the second answer.
             *again("causal_attention", inputs(*(same := (randn(2, 4, 3), randn(2, 4, 3), randn(2, 4, 2)))),
                    inputs(*same), check=[check(label=label, select=i, **tol(f32)) for i, label in ORDER],
                    fail=UNCHANGED_FAIL)),
        case(("large scores, float64", "大分数，float64"), 2.0,
             *attend(*_future_dominates(randn), randn(3, 4, 2, dtype=f64)), hint=LARGE_HINT),
        case(("bad input: n < 1", "错误输入：n < 1"), 1.0, call("causal_mask", 0, raises="ValueError")),
        case(("bad input: Q, K, V of different lengths", "错误输入：Q、K、V 长度不同"), 1.0,
             bad(randn(2, 4, 3), randn(2, 5, 3), randn(2, 5, 3)),
             # only V differs (blind set 2026-12-07: a check of Q and K alone passed)
             bad(randn(2, 4, 3), randn(2, 4, 3), randn(2, 5, 3))),
        # the statement also refuses Q and K of different widths d (Q·Kᵀ needs one d)
        case(("bad input: Q and K of different widths d", "错误输入：Q 与 K 的宽度 d 不同"), 1.0,
             bad(randn(2, 4, 3), randn(2, 4, 5), randn(2, 4, 3))),
    ]
