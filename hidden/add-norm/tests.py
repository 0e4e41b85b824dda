"""Hidden tests for add-norm: values with dropout 0, then dropout 1 in each mode, the contract.

Dropout is tested only at p = 0 and p = 1, where a right answer is deterministic: at p = 1 a
training-mode block drops all of Y (LayerNorm(X)) and an evaluation-mode block none of it
(LayerNorm(X + Y)), so a dropout in the wrong place or left on in eval gives its own numbers.
"""

import torch

from grader.authoring import case, contract, draw, outputs
from grader.spec import call, check, mode, new, ref, set_params

STABLE_HINT = {
    "en": "Large features: take the variance of the centred features, mean((Z - mean)²), or use "
          "nn.LayerNorm; mean(Z²) - mean(Z)² cancels every digit when the mean is large.",
    "zh": "特征值很大：请对中心化后的特征求方差，即 mean((Z - mean)²)，或直接用 nn.LayerNorm；"
          "均值很大时 mean(Z²) - mean(Z)² 会把有效数字全部抵消。"}
f64 = torch.float64
# How Y changes in place here (blind set 6): nn.Dropout hands back Y itself in evaluation mode
# and at p = 0, so `out = self.dropout(Y); out += X` adds into the caller's Y.
UNCHANGED = {"en": "`AddNorm.forward` changes the caller's `X` or `Y` in place. Note that `nn.Dropout` returns "
                   "`Y` itself in evaluation mode and at p = 0, so `out = self.dropout(Y); out += X` adds into "
                   "the caller's `Y`: write `X + self.dropout(Y)`, a new tensor.",
             "zh": "`AddNorm.forward` 原地修改了调用者传入的 `X` 或 `Y`。注意：在评估模式下以及 p = 0 时，`nn.Dropout` "
                   "返回的就是 `Y` 本身，所以 `out = self.dropout(Y); out += X` 会加到调用者的 `Y` 上：请写成 "
                   "`X + self.dropout(Y)`，得到一个新张量。"}
# At 0 < p < 1 each learner's dropout draws its own mask: hidden/add-norm/verify.py accepts any
# mask, with the right scale and a share of dropped entries near p.
DROPOUT_FAIL = {"en": "In training mode with dropout 0.25 your output is not LayerNorm(X + Dropout(Y)) for any "
                      "choice of dropped entries: drop each entry of Y with probability p and scale the kept "
                      "ones by 1/(1 − p), as nn.Dropout does.",
                "zh": "训练模式、dropout 0.25 时，无论丢弃哪些元素，你的输出都不是 LayerNorm(X + Dropout(Y))："
                      "要以概率 p 丢弃 Y 的每个元素，并把保留的元素乘以 1/(1 − p)，正如 nn.Dropout 所做的。"}
DROPOUT_SAYS = {"no-rescale": {"mistake": "dropout-no-rescale"},  # their words: mistakes.json
                "never-drops": {"mistake": "dropout-never-drops"}}


def build(rng: torch.Generator) -> list:
    randn = draw(rng)

    def block(X, Y, p=0.0, weights=True, training=None, verified=False):
        """AddNorm(d, p) with a LayerNorm weight away from 1 and bias away from 0 (LayerNorm(0) =
        bias shows), in the inputs' dtype, then called on X, Y (``verified``: judged by the
        dropout verifier, any mask)."""
        d, dtype = X.shape[-1], X.dtype
        params = {"ln.weight": 1.0 + randn(d, dtype=dtype, scale=0.5),
                  "ln.bias": randn(d, dtype=dtype, scale=0.5)} if weights else {}
        steps = [new("AddNorm", d, p, save="m")]
        if params or dtype == f64:
            steps.append(set_params("m", params, dtype="float64" if dtype == f64 else None))
        if training is not None:
            steps.append(mode("m", training=training))
        if verified:
            return [*steps, call(ref("m"), X, Y, check=check("verify", label="output", verify="add-norm/dropout",
                                                         fail=DROPOUT_FAIL, explain=DROPOUT_SAYS))]
        return [*steps, *outputs(ref("m"), X, Y)]

    # Tokens of nearly equal features (variance 0, 1e-8, 1e-12), in eighths so the mean of a
    # constant token is exact and its variance exactly 0 (every spelling then agrees on it).
    level = randn(3, 1, 1, dtype=f64, scale=16.0).round() / 8
    flat_x = level.expand(3, 2, 6) + torch.cat([torch.zeros(3, 1, 6, dtype=f64),
                                                randn(3, 1, 6, dtype=f64, scale=1e-4)], 1)
    flat_y = torch.zeros(3, 2, 6, dtype=f64)
    flat_y[1, 0] = randn(6, dtype=f64, scale=1e-6)
    return [
        case(("float32, batch 2 < seq 5, d 8", "float32，批大小 2 < 序列长 5，d 8"), 2,
             *block(randn(2, 5, 8), randn(2, 5, 8))),
        case(("float64, batch 6 > seq 3, d 4", "float64，批大小 6 > 序列长 3，d 4"), 2,
             *block(randn(6, 3, 4, dtype=f64), randn(6, 3, 4, dtype=f64))),
        case(("a new module as built (LayerNorm weight 1, bias 0), d 16", "刚构造的模块（LayerNorm 权重为 1、偏置为 0），d 16"),
             1, *block(randn(3, 4, 16), randn(3, 4, 16, scale=0.5), weights=False)),
        case(("one token per sequence (T = 1), float64", "每个序列只有一个词元（T = 1），float64"), 1,
             *block(randn(5, 1, 6, dtype=f64), randn(5, 1, 6, dtype=f64))),
        case(("a batch of one sequence (B = 1), float64", "批量中只有一个序列（B = 1），float64"), 1,
             *block(randn(1, 7, 6, dtype=f64), randn(1, 7, 6, dtype=f64))),
        case(("tokens whose features are (almost) all equal, float64", "特征（几乎）全相等的词元，float64"), 1,
             *block(flat_x, flat_y)),
        case(("large features (around 1e6), float64", "很大的特征值（约 1e6），float64"), 1,
             *block(1e6 + randn(4, 3, 8, dtype=f64), randn(4, 3, 8, dtype=f64)), hint=STABLE_HINT),
        # p = 1 in eval: dropout is the identity, LayerNorm(X + Y); left on, it answers LayerNorm(X).
        case(("evaluation mode with dropout 1.0: nothing is dropped", "评估模式，dropout 1.0：什么都不丢弃"), 2,
             *block(randn(3, 4, 8), randn(3, 4, 8), p=1.0, training=False)),
        # p = 1 in training: all of Y is dropped, LayerNorm(X); after the norm 0, on the sum the bias.
        case(("training mode with dropout 1.0: all of Y is dropped", "训练模式，dropout 1.0：Y 全部被丢弃"), 2,
             *block(randn(4, 3, 6, dtype=f64), randn(4, 3, 6, dtype=f64), p=1.0, training=True)),
        case(("training mode with dropout 0.25: entries of Y dropped at random, the kept ones scaled",
              "训练模式，dropout 0.25：随机丢弃 Y 的元素，保留的元素放大"), 2,
             *block(randn(16, 4, 6, dtype=f64), randn(16, 4, 6, dtype=f64), p=0.25, training=True, verified=True)),
        contract(ref("m"), randn(3, 4, 6, dtype=f64), randn(3, 4, 6, dtype=f64), label="AddNorm.forward",
                 unchanged=UNCHANGED,
                 setup=[new("AddNorm", 6, 0.0, save="m"), set_params("m", {
                     "ln.weight": 1.0 + randn(6, dtype=f64, scale=0.5), "ln.bias": randn(6, dtype=f64, scale=0.5)},
                     dtype="float64")],
                 name=("returns a torch tensor in the module's dtype (float64), X and Y left unchanged",
                       "返回模块 dtype（float64）的 torch 张量，且不修改 X 和 Y")),
    ]
