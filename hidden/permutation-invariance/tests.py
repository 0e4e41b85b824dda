"""Hidden tests for permutation-invariance."""

import torch

from grader.authoring import case, draw, outputs
from grader.spec import call, check, fixture, get, ref, returns

ANSWER = {"label": "is_permutation_equivariant",
          "true_means": {"en": "the layer is equivariant", "zh": "该层是等变的"},
          "false_means": {"en": "the layer is not equivariant", "zh": "该层不是等变的"}}
BOOL_FAIL = {"en": "Return a Python bool: `bool(torch.allclose(...))`, not a tensor. Your "
                   "answers are graded as bools everywhere else, so this costs one point.",
             "zh": "请返回 Python bool：`bool(torch.allclose(...))`，而不是张量。其余测试都按 bool "
                   "判分，所以这只扣一分。", "mistake": "tensor-bool"}
TABLE_FAIL = {"en": "`sinusoidal_positional_encoding` must return a torch.Tensor of dtype "
                    "float32 (compute in float64 if you like, then `.float()`).",
              "zh": "`sinusoidal_positional_encoding` 必须返回 dtype 为 float32 的 torch.Tensor"
                    "（可以先用 float64 计算，再 `.float()`）。", "mistake": "wrong-return-type"}


def build(rng: torch.Generator) -> list:
    randn = draw(rng)

    def perm(n):  # a random permutation that is not its own inverse (so "inverse" mistakes show)
        while True:
            p = torch.randperm(n, generator=rng)
            if not torch.equal(p[p], torch.arange(n)):
                return p

    def equiv_case(name, make, x, p, **kw):  # the layer is a trusted fixture, not learner code
        return case(name, 1, make, call("is_permutation_equivariant", ref("layer"), x, p, **kw,
                                        check=check("equal", **ANSWER)))

    def nearly(scale, eps):  # a layer equivariant up to gaps of about eps
        return fixture("nearly_equivariant", save="layer", weight=scale * randn(3, 3, dtype=f64), eps=eps)

    def table(seq_len, d_model):
        return case((f"positional table ({seq_len}, {d_model})", f"位置编码表 ({seq_len}, {d_model})"), 1,
                    *outputs("sinusoidal_positional_encoding", seq_len, d_model, labels=("table",),
                             tol={"rtol": 1e-4}))

    f64 = torch.float64
    small = 1e-4  # outputs ~1e-3: torch.allclose's default rtol=1e-5 adds < 1e-8, below every gap
    tiny = 1e-5  # outputs ~1e-4: rtol adds ~1e-9 next to gaps of eps in [5e-8, 2e-7] (eps jittered)
    # An equivariant and a non-equivariant layer share each shape, dtype and perm type (linear /
    # adds positions, attention / causal attention, mean / running sum, tolerance / far above
    # atol): a submission that tells cases apart by their structure and learns each answer from
    # per-case feedback cannot get both of a pair (red team 5, N3: 14/19 without solving).
    return [
        equiv_case(("per-token linear layer, perm as a list", "逐词元线性层，perm 为列表"),
                   fixture("token_linear", save="layer", weight=randn(4, 4), bias=randn(4)),
                   randn(3, 6, 4), perm(6).tolist()),
        equiv_case(("self-attention returning (output, weights), float64, perm as LongTensor",
                    "返回 (output, weights) 的自注意力，float64，perm 为 LongTensor"),
                   fixture("self_attention", save="layer", in_proj_weight=randn(24, 8, dtype=f64),
                           out_proj_weight=randn(8, 8, dtype=f64), num_heads=2),
                   randn(2, 5, 8, dtype=f64), perm(5)),
        equiv_case(("self-attention, batch 6 > seq 4", "自注意力，批大小 6 > 序列长 4"),
                   fixture("self_attention", save="layer", in_proj_weight=randn(12, 4),
                           out_proj_weight=randn(4, 4), num_heads=1),
                   randn(6, 4, 4), perm(4)),
        equiv_case(("swapping two positions (a permutation that is its own inverse)", "交换两个位置（逆等于自身的置换）"),
                   fixture("token_linear", save="layer", weight=randn(2, 3), bias=randn(2)),
                   randn(3, 5, 3), [0, 3, 2, 1, 4]),
        equiv_case(("a layer that adds positions", "加入位置信息的层"),  # shaped as the per-token linear layer
                   fixture("add_positions", save="layer"), randn(3, 6, 4), perm(6).tolist()),
        equiv_case(("causal self-attention", "因果自注意力"),  # shaped as "self-attention, batch 6 > seq 4"
                   fixture("self_attention", save="layer", in_proj_weight=randn(12, 4),
                           out_proj_weight=randn(4, 4), causal=True),
                   randn(6, 4, 4), perm(4)),
        equiv_case(("running sum, batch 7 > seq 4", "累加和，批大小 7 > 序列长 4"),
                   fixture("cumulative_sum", save="layer"), randn(7, 4, 2), perm(4)),
        equiv_case(("every token gets the mean", "每个词元都得到平均值"),  # shaped as the running sum
                   fixture("sequence_mean", save="layer"), randn(7, 4, 2), perm(4)),
        equiv_case(("equal only up to rounding: needs a tolerance", "只在舍入误差内相等：需要容差"),
                   nearly(small, 1e-7), randn(2, 6, 3, dtype=f64), perm(6)),
        equiv_case(("the atol argument is honoured", "遵守 atol 参数"),
                   nearly(small, 1e-7), randn(2, 6, 3, dtype=f64), perm(6), atol=1e-9),
        equiv_case(("atol is honoured exactly: every gap is between atol and 10 * atol",
                    "严格遵守 atol：每处差值都在 atol 与 10 * atol 之间"),
                   nearly(tiny, 1e-7), randn(2, 6, 3, dtype=f64), [1, 0, 3, 2, 5, 4], atol=2.5e-8),
        equiv_case(("a difference far above atol", "差值远大于 atol"),
                   nearly(small, 1e-3), randn(2, 6, 3, dtype=f64), perm(6)),
        # Two more tolerance cases, each with one answer: a generous atol (1e-4) over gaps below
        # 1e-6, and gaps far below torch.allclose's default atol (1e-8). Exact equality, allclose
        # without the caller's atol and a fixed threshold each fail their own set of the five
        # tolerance cases (hidden diagnose.py reads which).
        equiv_case(("atol 1e-4 over gaps below 1e-6", "atol 为 1e-4，差值都小于 1e-6"),
                   nearly(small, 1e-7), randn(2, 6, 3, dtype=f64), perm(6), atol=1e-4),
        equiv_case(("gaps far below 1e-8 (torch.allclose's own atol)", "差值远小于 1e-8（torch.allclose 自带的 atol）"),
                   nearly(small, 1e-11), randn(2, 6, 3, dtype=f64), perm(6)),
        case(("the answer is a Python bool", "答案是 Python 的 bool"), 1,
             fixture("token_linear", save="layer", weight=randn(4, 4), bias=randn(4)),
             call("is_permutation_equivariant", ref("layer"), randn(2, 3, 4), [2, 0, 1],
                  check=check("type", label="is_permutation_equivariant", fail=BOOL_FAIL))),
        table(7, 16), table(50, 64), table(1, 2), table(12, 6),
        # One dtype only (the table is float32 whatever the arguments): not the two-dtype contract.
        case(("the table is a float32 torch.Tensor", "编码表是 float32 的 torch.Tensor"), 1,
             get("sinusoidal_positional_encoding", save="f"),
             *returns(ref("f"), 6, 8, label="sinusoidal_positional_encoding(6, 8)", fail=TABLE_FAIL)),
        case(("odd d_model raises ValueError", "d_model 为奇数时抛出 ValueError"), 1,
             call("sinusoidal_positional_encoding", 5, 7, raises="ValueError")),
    ]
