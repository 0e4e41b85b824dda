"""Hidden tests for add-norm: values with dropout 0, then dropout 1 in each mode, types, inputs.

Dropout is tested only at p = 0 and p = 1, where a right answer is deterministic: at p = 1 a
training-mode block drops all of Y (LayerNorm(X)) and an evaluation-mode block none of it
(LayerNorm(X + Y)), so a dropout in the wrong place or left on in eval gives its own numbers,
and a mistake file with the same slip gives the same ones (a p in between would not).
"""

import torch

from grader.spec import (
    Case,
    again,
    call,
    check,
    inputs,
    mode,
    new,
    ref,
    returns,
    set_params,
    zh_names,
)

CLS = "AddNorm"


def _m(en: str, zh: str, mistake: str | None = None) -> dict:
    return {"en": en, "zh": zh, **({"mistake": mistake} if mistake else {})}


TYPES_FAIL = _m(
    "`AddNorm.forward` must return a torch tensor in the dtype of the module and its inputs "
    "(float64 here): no numpy and no `.float()`.",
    "`AddNorm.forward` 必须返回与模块及输入 dtype 相同的 torch 张量（此处为 float64）：不要返回 numpy，"
    "也不要 `.float()`。", "wrong-return-type")
UNCHANGED_FAIL = _m(
    "`AddNorm.forward` changes the caller's `X` or `Y` in place (`X += ...`, `.add_()`): "
    "compute the sum as a new tensor, `X + dropout(Y)`.",
    "`AddNorm.forward` 原地修改了调用者传入的 `X` 或 `Y`（`X += ...`、`.add_()`）：请把和算成新张量，"
    "`X + dropout(Y)`。", "changes-input")
STABLE_HINT = {
    "en": "Large features: take the variance of the centred features, mean((Z - mean)²), or use "
          "nn.LayerNorm; mean(Z²) - mean(Z)² cancels every digit when the mean is large.",
    "zh": "特征值很大：请对中心化后的特征求方差，即 mean((Z - mean)²)，或直接用 nn.LayerNorm；"
          "均值很大时 mean(Z²) - mean(Z)² 会把有效数字全部抵消。"}


# Each case's name on a Chinese page (the English name stays the gradebook's key).
ZH_NAMES = {
    'float32, batch 2 < seq 5, d 8': 'float32，批大小 2 < 序列长 5，d 8',
    'float64, batch 6 > seq 3, d 4': 'float64，批大小 6 > 序列长 3，d 4',
    'a new module as built (LayerNorm weight 1, bias 0), d 16': '刚构造的模块（LayerNorm 权重为 1、偏置为 0），d 16',
    'one token per sequence (T = 1), float64': '每个序列只有一个词元（T = 1），float64',
    'a batch of one sequence (B = 1), float64': '批量中只有一个序列（B = 1），float64',
    'tokens whose features are (almost) all equal, float64': '特征（几乎）全相等的词元，float64',
    'large features (around 1e6), float64': '很大的特征值（约 1e6），float64',
    'evaluation mode with dropout 1.0: nothing is dropped': '评估模式，dropout 1.0：什么都不丢弃',
    'training mode with dropout 1.0: all of Y is dropped': '训练模式，dropout 1.0：Y 全部被丢弃',
    "returns a torch tensor in the module's dtype (float64), X and Y left unchanged":
        '返回模块 dtype（float64）的 torch 张量，且不修改 X 和 Y',
}


@zh_names(ZH_NAMES)
def build(rng: torch.Generator) -> list[Case]:
    def randn(*shape, dtype=torch.float32, scale=1.0):
        return torch.randn(*shape, generator=rng, dtype=torch.float64).mul(scale).to(dtype)

    def tol(dtype):
        return {"rtol": 1e-5, "atol": 1e-6 if dtype == torch.float64 else 1e-5}

    def loaded(d, p, dtype, weights=True):
        """The block built as AddNorm(d, p), with a LayerNorm weight and bias of our own."""
        steps = [new(CLS, d, p, save="m")]
        if weights:  # weight away from 1 and bias away from 0: LayerNorm(0) = bias shows
            steps.append(set_params("m", {"ln.weight": 1.0 + randn(d, dtype=dtype, scale=0.5),
                                          "ln.bias": randn(d, dtype=dtype, scale=0.5)},
                                    dtype="float64" if dtype == torch.float64 else None))
        elif dtype == torch.float64:
            steps.append(set_params("m", {}, dtype="float64"))
        return steps

    def value_case(name, X, Y, points=1.0, weights=True, p=0.0, training=None, hint=None):
        # Values only: the dtype is graded once, in its own case.
        steps = loaded(X.shape[-1], p, X.dtype, weights)
        if training is not None:
            steps.append(mode("m", training=training))
        steps.append(call(ref("m"), X, Y, check=check(label="output", **tol(X.dtype))))
        return Case(name, points, steps, hint=hint)

    f64 = torch.float64

    # Tokens of nearly equal features: variance 0 (the first), 1e-8 and 1e-12 (float64).
    # (3, 1, 1): one level per sequence, in eighths so that the mean of 6 equal features is
    # exact and the variance of a constant token exactly 0 (every spelling then agrees on it)
    level = randn(3, 1, 1, dtype=f64, scale=16.0).round() / 8
    flat_x = level.expand(3, 2, 6) + torch.cat([torch.zeros(3, 1, 6, dtype=f64),
                                                randn(3, 1, 6, dtype=f64, scale=1e-4)], 1)
    flat_y = torch.zeros(3, 2, 6, dtype=f64)
    flat_y[1, 0] = randn(6, dtype=f64, scale=1e-6)

    X_big = 1e6 + randn(4, 3, 8, dtype=f64)  # (4, 3, 8): mean 1e6, variance about 2
    X_types, Y_types = randn(3, 4, 6, dtype=f64), randn(3, 4, 6, dtype=f64)
    return [
        value_case("float32, batch 2 < seq 5, d 8", randn(2, 5, 8), randn(2, 5, 8), points=2.0),
        value_case("float64, batch 6 > seq 3, d 4", randn(6, 3, 4, dtype=f64),
                   randn(6, 3, 4, dtype=f64), points=2.0),
        value_case("a new module as built (LayerNorm weight 1, bias 0), d 16", randn(3, 4, 16),
                   randn(3, 4, 16, scale=0.5), weights=False),
        value_case("one token per sequence (T = 1), float64", randn(5, 1, 6, dtype=f64),
                   randn(5, 1, 6, dtype=f64)),
        value_case("a batch of one sequence (B = 1), float64", randn(1, 7, 6, dtype=f64),
                   randn(1, 7, 6, dtype=f64)),
        value_case("tokens whose features are (almost) all equal, float64", flat_x, flat_y),
        value_case("large features (around 1e6), float64", X_big, randn(4, 3, 8, dtype=f64),
                   hint=STABLE_HINT),
        # p = 1 in evaluation mode: nn.Dropout is the identity, so the answer is LayerNorm(X + Y);
        # dropout left on drops all of Y and answers LayerNorm(X).
        value_case("evaluation mode with dropout 1.0: nothing is dropped", randn(3, 4, 8),
                   randn(3, 4, 8), points=2.0, p=1.0, training=False),
        # p = 1 in training mode: every entry of Y is dropped, so the answer is LayerNorm(X);
        # dropout after the norm answers 0, dropout on the sum LayerNorm(0) = bias.
        value_case("training mode with dropout 1.0: all of Y is dropped", randn(4, 3, 6, dtype=f64),
                   randn(4, 3, 6, dtype=f64), points=2.0, p=1.0, training=True),
        Case("returns a torch tensor in the module's dtype (float64), X and Y left unchanged", 1.0, [
            *loaded(6, 0.0, f64),
            *returns(ref("m"), X_types, Y_types, label=f"{CLS}.forward", fail=TYPES_FAIL),
            # The very same X and Y twice: `X += Y` in place changes the second answer.
            *again(ref("m"), inputs(X_types, Y_types), inputs(X_types, Y_types),
                   check=check(label="output", **tol(f64)), fail=UNCHANGED_FAIL)]),
    ]
