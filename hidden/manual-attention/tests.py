"""Hidden tests for manual-attention.

Part A's expected values are the reference's own: graded for a learner, the reference carries
that learner's Q and V (exercises/manual-attention/variant.py, grader/variants.py)."""

import torch

from grader.authoring import case, draw, picked, tol
from grader.spec import again, check, get, inputs, ref, returns

TYPES_FAIL = {"en": "`attention` must return torch tensors `(context, weights)` with the dtype of `Q` "
                    "(float64 here): no numpy, no `.float()`.",
              "zh": "`attention` 必须返回 dtype 与 `Q` 相同的 torch 张量 `(context, weights)`（此处为 "
                    "float64）：不要返回 numpy，也不要 `.float()`。", "mistake": "wrong-return-type"}
TYPES32_FAIL = {"en": "`attention` must keep the dtype of its inputs: float32 `Q`, `K`, `V` give float32 "
                      "`(context, weights)`, not float64 (no `.double()` on the inputs or the result) and "
                      "not numpy.",
                "zh": "`attention` 必须保持输入的 dtype：float32 的 `Q`、`K`、`V` 应得到 float32 的 "
                      "`(context, weights)`，而不是 float64（不要对输入或结果 `.double()`），也不要返回 numpy。",
                "mistake": "wrong-return-type"}
UNCHANGED_FAIL = {"en": "`attention` changes the caller's `Q`, `K`, `V` or `mask` in place (`+=`, `/=`, `.div_()`, "
                        "`masked_fill_`...): compute on new tensors and leave the inputs as they were.",
                  "zh": "`attention` 原地修改了调用者传入的张量（`+=`、`/=`、`.div_()`、`masked_fill_` 等）："
                        "请在新张量上计算，不要改动输入。", "mistake": "changes-input"}
f64 = torch.float64
ORDER = ((1, "weights"), (0, "context"))  # the weights first: the earlier stage is the one named


def build(rng: torch.Generator) -> list:
    randn = draw(rng)

    def attend(*a, **kw):
        return picked("attention", *a, order=ORDER, **kw)

    def types(Q, K, V):
        """Types, dtypes (float64 and float32) and untouched inputs, said once for the exercise."""
        q32, k32, v32 = (t.float() for t in (Q, K, V))
        # The same Q, K, V and a causal mask twice: Q divided in place, or the mask flipped,
        # changes the second answer (spec.again).
        mask = torch.ones(Q.shape[-2], K.shape[-2], dtype=torch.bool).tril()
        return [get("attention", save="f"),
                *returns(ref("f"), Q, K, V, items=2, label="attention", fail=TYPES_FAIL),
                *returns(ref("f"), q32, k32, v32, items=2, label="attention", fail=TYPES32_FAIL),
                *again("attention", inputs(Q, K, V, mask=mask), inputs(Q, K, V, mask=mask),
                       check=[check(label=label, select=i, **tol(f64)) for i, label in ORDER],
                       fail=UNCHANGED_FAIL)]

    # Masks: True = may attend; every query keeps at least one key.
    lengths = torch.tensor([2, 5, 1])
    pad = (torch.arange(5).view(1, 1, 5) < lengths.view(3, 1, 1))  # (3, 1, 5) broadcasts over queries
    causal = torch.tril(torch.ones(6, 6, dtype=torch.bool))  # (n, m) broadcasts over the batch
    return [
        case(("Part A: scores", "A 部分：scores（分数）"), 2,
             get("scores", check=check(label="scores", atol=1e-3))),
        case(("Part A: weights", "A 部分：weights（权重）"), 2,
             get("weights", check=check(label="weights", atol=1e-3))),
        case(("Part A: first context vector", "A 部分：第一个上下文向量"), 2,
             get("context", check=check(label="context", atol=1e-3))),
        case(("2-D inputs, n != m, d_v != d_k", "二维输入，n != m，d_v != d_k"), 1,
             *attend(randn(4, 8), randn(6, 8), randn(6, 5))),
        case(("batched, float64, batch 5 > seq 3 (also: torch tensors in the dtype of the inputs, inputs unchanged)",
              "批量，float64，批大小 5 > 序列长 3（并检查：返回与输入 dtype 相同的 torch 张量、输入不被修改）"), 1,
             *attend(*(QKV := (randn(5, 3, 4, dtype=f64), randn(5, 3, 4, dtype=f64), randn(5, 3, 2, dtype=f64)))),
             *types(*QKV)),
        case(("batch and heads (2, 3, 4, 16) x (2, 3, 7, 16)", "批和多头 (2, 3, 4, 16) x (2, 3, 7, 16)"), 1,
             *attend(randn(2, 3, 4, 16), randn(2, 3, 7, 16), randn(2, 3, 7, 6))),
        case(("key-padding mask (B, 1, m)", "键填充掩码 (B, 1, m)"), 1,
             *attend(randn(3, 4, 8), randn(3, 5, 8), randn(3, 5, 3), mask=pad)),
        case(("causal mask (n, n), float64, batch 2 < seq 6", "因果掩码 (n, n)，float64，批大小 2 < 序列长 6"), 1,
             *attend(randn(2, 6, 4, dtype=f64), randn(2, 6, 4, dtype=f64), randn(2, 6, 4, dtype=f64), mask=causal)),
        # queries scaled by 30 and keys close to them: scores in the thousands, where exp overflows
        case(("large scores stay finite", "大分数下结果保持有限"), 1,
             *attend(q := randn(2, 3, 16, scale=30.0), q + randn(2, 3, 16), randn(2, 3, 5), tol={"rtol": 1e-4})),
    ]
