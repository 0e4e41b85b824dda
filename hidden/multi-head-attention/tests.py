"""Hidden tests for multi-head-attention: values on loaded weights, types, and one training step.

Shapes are chosen so the candidate scale factors differ in most value cases (E=8, h=2:
1/√d_k = 0.5, 1/d_k = 0.25, 1/√E = 0.35), while dtype and trainability are each one case,
so a single mistake of that kind costs its points once.
"""

import torch

from grader.authoring import case, contract, draw, picked, tol
from grader.spec import call, check, describe, new, probe, ref, set_params

NAMES = ("query", "key", "value", "out_proj")
CLS = "SimpleMultiHeadAttention"


def _m(en: str, zh: str, mistake: str | None = None) -> dict:
    return {"en": en, "zh": zh, **({"mistake": mistake} if mistake else {})}


TYPES = _m(
    "`SimpleMultiHeadAttention.forward` must return torch tensors `(output, weights)` in the "
    "dtype of the module and its input (float64 here): no numpy, no `.float()` and no float32 "
    "softmax inside a float64 module.",
    "`SimpleMultiHeadAttention.forward` 必须返回 torch 张量 `(output, weights)`，dtype 与模块和输入"
    "相同（此处为 float64）：不要用 numpy，不要 `.float()`，也不要在 float64 模块中用 float32 的 softmax。")
UNCHANGED = _m("`forward` changes the caller's `x` in place: compute on new tensors.",
               "`forward` 原地修改了调用者传入的 `x`：请在新张量上计算。")
# weights first: they are the earlier stage, so a failure names where it starts
WEIGHTS_FIRST = ((1, "weights"), (0, "output"))
TRAIN_STATUS = {
    "backward-inplace": _m(
        "`loss.backward()` fails: an in-place operation (`exp_()`, `/=`, `masked_fill_`...) "
        "overwrote a tensor autograd still needs. Use out-of-place ops (`torch.softmax`, "
        "`e = e / e.sum(...)`).",
        "`loss.backward()` 失败：原地操作（`exp_()`、`/=`、`masked_fill_` 等）覆盖了 autograd 还需要的"
        "张量。请改用非原地操作（`torch.softmax`、`e = e / e.sum(...)`）。", "breaks-backward"),
    "backward-error": _m("`loss.backward()` raises an error through your forward pass.",
                         "`loss.backward()` 在你的前向计算中抛出了错误。"),
    "no-graph": _m(
        "The output does not require grad: `forward` leaves the autograd graph (`.detach()`, "
        "`.data`, `torch.no_grad()` or numpy inside), so the module cannot be trained.",
        "输出不需要梯度：`forward` 脱离了计算图（用了 `.detach()`、`.data`、`torch.no_grad()` 或 numpy），"
        "模块无法训练。", "leaves-the-graph"),
    "not-a-tensor": _m("`forward` does not return a torch tensor, so no gradient can flow back.",
                       "`forward` 没有返回 torch 张量，梯度无法回传。", "wrong-return-type"),
}


def _grad_fail(name: str) -> dict:
    return _m(f"The gradient reaching `{name}.weight` differs from the reference's on the same "
              "weights: either the forward values are wrong (fix the value tests first), or part of "
              "the computation leaves the graph (`.detach()`, `.data`, `torch.no_grad()`, numpy).",
              f"到达 `{name}.weight` 的梯度与参考实现在相同权重下的梯度不同：要么前向计算的数值有误"
              "（请先修正数值测试），要么部分计算脱离了计算图（`.detach()`、`.data`、`torch.no_grad()` 或 numpy）。")


def _no_grad(name: str) -> dict:
    return _m(f"No gradient reaches `{name}.weight`, so that projection cannot learn: either "
              f"`forward` never uses `self.{name}` (another projection computes its part, e.g. keys "
              "made with `self.query`), or its path leaves the autograd graph (`.detach()`, "
              "`.data`, `torch.no_grad()`, numpy).",
              f"没有梯度到达 `{name}.weight`，该投影无法学习：要么 `forward` 根本没有用到 `self.{name}`"
              "（它的那一部分由别的投影算出，例如用 `self.query` 算键），要么它所在的路径脱离了计算图"
              "（`.detach()`、`.data`、`torch.no_grad()`、numpy）。", "leaves-the-graph")


def build(rng: torch.Generator) -> list:
    randn = draw(rng)

    def loaded(E, h, dtype, merged=False):
        params = {}
        for n in NAMES:
            params[f"{n}.weight"] = randn(E, E, dtype=dtype, scale=E ** -0.5)
            params[f"{n}.bias"] = randn(E, dtype=dtype, scale=0.1)
        if merged:  # out_proj = identity: the output is the merged heads themselves
            params["out_proj.weight"] = torch.eye(E, dtype=dtype)
            params["out_proj.bias"] = torch.zeros(E, dtype=dtype)
        return [new(CLS, E, h, save="m"),
                set_params("m", params, dtype="float64" if dtype == torch.float64 else None)]

    def values(B, T, E, h, dtype=torch.float32, mask=None, twice=False, merged=False):
        # Values are compared with the tolerance of x's dtype: the dtype is graded once, in its
        # own case. One call carries both checks.
        x = randn(B, T, E, dtype=dtype)
        kw = {} if mask is None else {"mask": mask}
        both = [check(label=label, select=i, **tol(dtype)) for i, label in WEIGHTS_FIRST]
        # ``twice``: the same call again, so dropout left on (two calls disagree) shows
        repeat = picked(ref("m"), x, order=((0, "output"),), **kw) if twice else []
        return [*loaded(E, h, dtype, merged), call(ref("m"), x, **kw, check=both), *repeat]

    lengths = torch.tensor([5, 3, 1, 4])
    padding = (torch.arange(5).view(1, 1, 1, 5) < lengths.view(4, 1, 1, 1))  # (B, 1, 1, T)
    f64 = torch.float64
    x_types = randn(3, 4, 8, dtype=f64)
    x_train, g_train = randn(2, 5, 8, dtype=f64), randn(2, 5, 8, dtype=f64)
    return [
        case(("submodules are nn.Linear(E, E) with bias, named as in the contract",
              "子模块是带偏置的 nn.Linear(E, E)，名称与约定一致"), 1,
             new(CLS, 12, 3, save="m"), describe("m", list(NAMES), check=check("equal", label="submodules"))),
        case(("embed_dim not divisible by num_heads raises ValueError",
              "embed_dim 不能被 num_heads 整除时抛出 ValueError"), 1, new(CLS, 6, 4, raises="ValueError")),
        case(("2 heads, float32, batch 2 < seq 5", "2 个头，float32，批大小 2 < 序列长 5"), 1.0,
             *values(2, 5, 8, 2, twice=True)),
        case(("3 heads, float64, batch 7 > seq 3", "3 个头，float64，批大小 7 > 序列长 3"), 1.0,
             *values(7, 3, 12, 3, dtype=f64)),
        case(("1 head (plain self-attention)", "1 个头（普通自注意力）"), 1.0, *values(1, 4, 6, 1)),
        case(("as many heads as features (d_k = 1)", "头数等于特征数（d_k = 1）"), 1.0, *values(2, 3, 4, 4)),
        case(("causal mask (T, T), 4 heads of 6 features", "因果掩码 (T, T)，4 个头，每头 6 个特征"), 2,
             *values(3, 6, 24, 4, mask=torch.tril(torch.ones(6, 6, dtype=torch.bool)))),
        case(("padding mask (B, 1, 1, T), float64", "填充掩码 (B, 1, 1, T)，float64"), 1.0,
             *values(4, 5, 8, 2, dtype=f64, mask=padding)),
        case(("out_proj = identity: the output is the merged heads, 3 heads of 2",
              "out_proj 为单位矩阵：输出就是合并后的各头，3 个头，每头 2 维"), 1.0,
             *values(2, 4, 6, 3, dtype=f64, merged=True)),
        # The very same x twice: x scaled or shifted in place changes the second answer.
        contract(ref("m"), x_types, setup=loaded(8, 2, f64), label=f"{CLS}.forward", points=1,
                 names=("output", "weights"), order=WEIGHTS_FIRST, types=TYPES, unchanged=UNCHANGED,
                 name=("returns torch tensors in the module's dtype (float64) and leaves x unchanged",
                       "返回模块 dtype（float64）的 torch 张量，且不修改 x")),
        # A probe of one training step: the full step language.
        case(("trainable: the gradients of all four projections and one SGD step match the reference",
              "可训练：四个投影的梯度和一步 SGD 与参考实现一致"), 2,
             *loaded(8, 2, f64),
             probe("train", module=ref("m"), x=x_train, grad_out=g_train, check=[
                 check("equal", label="loss.backward()", select=0, explain=TRAIN_STATUS,
                       fail=TRAIN_STATUS["backward-error"]),
                 # A projection of q, k, v that no gradient reaches at all is the clue,
                 # before any gradient that differs (keys made with self.query: query's
                 # differs too). out_proj unused is the no-output-projection mistake.
                 *[check("type", label=f"gradient of {n}.weight", select=i + 1,
                         fail=_no_grad(n)) for i, n in enumerate(NAMES) if n != "out_proj"],
                 # Loose enough for a float32 step inside a float64 module (graded in
                 # the dtype case); a gradient that misses a path is off by far more.
                 *[check("allclose", label=f"gradient of {n}.weight", select=i + 1,
                         rtol=1e-4, atol=1e-7, fail=_grad_fail(n),
                         explain={"no-gradient": _no_grad(n)})
                   for i, n in enumerate(NAMES)],
                 check("allclose", label="optimizer step", select=5, rtol=1e-4, atol=1e-7, fail=_m(
                     "The gradients are right, but one optimiser step does not change the "
                     "output as it should: `forward` computes with tensors that are not the "
                     "module's trainable parameters (copies, or values made at `__init__`).",
                     "梯度正确，但一步优化后输出没有按应有的方式变化：`forward` 使用的张量并不是模块的"
                     "可训练参数（副本，或在 `__init__` 中预先算好的值）。",
                     "leaves-the-graph"))])),
    ]
