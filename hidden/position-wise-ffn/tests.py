"""Hidden cases for the position-wise FFN: float32 and float64, batches below and above the
number of positions, d_ff wider and narrower than d_model, nonzero biases and inputs of both
signs (so a missing or misplaced ReLU and a missing bias all show), types and unchanged inputs."""

import torch

from grader.spec import Case, again, call, check, get, inputs, ref, returns, zh_names

TYPES_FAIL = {"en": "`position_wise_ffn` must return one torch tensor with the dtype of `X` "
                    "(float32 in, float32 out; float64 in, float64 out): no numpy, no tuple, no casts.",
              "zh": "`position_wise_ffn` 必须返回一个 dtype 与 `X` 相同的 torch 张量"
                    "（float32 进 float32 出，float64 进 float64 出）：不要返回 numpy 或元组，也不要转换类型。",
              "mistake": "wrong-return-type"}
UNCHANGED_FAIL = {"en": "`position_wise_ffn` changes the caller's `X`, weights or biases in place "
                        "(`+=`, `.relu_()`, `.clamp_()`...): compute on new tensors.",
                  "zh": "`position_wise_ffn` 原地修改了调用者传入的张量（`+=`、`.relu_()`、`.clamp_()` "
                        "等）：请在新张量上计算，不要改动输入。", "mistake": "changes-input"}


def _tol(dtype):
    return {"rtol": 1e-5, "atol": 1e-6 if dtype == torch.float64 else 1e-5}


# Each case's name on a Chinese page (the English name stays the gradebook's key).
ZH_NAMES = {
    "float64, batch 2, 3 positions, d_model 4, d_ff 16": "float64，批大小 2，3 个位置，d_model 4，d_ff 16",
    "float32, batch 5 > 3 positions, d_model 6, d_ff 12": "float32，批大小 5 > 3 个位置，d_model 6，d_ff 12",
    "float64, batch 1, 7 positions, d_ff 3 < d_model 5": "float64，批大小 1，7 个位置，d_ff 3 < d_model 5",
    "float32, batch 4, one position, d_model 8, d_ff 32": "float32，批大小 4，1 个位置，d_model 8，d_ff 32",
    "types: one torch tensor in the dtype of X (float32 and float64); inputs left unchanged":
        "类型：一个 dtype 与 X 相同的 torch 张量（float32 和 float64）；输入不被修改",
}


@zh_names(ZH_NAMES)
def build(rng: torch.Generator) -> list[Case]:
    def randn(*shape, dtype, scale=1.0):
        return torch.randn(*shape, generator=rng, dtype=torch.float64).mul(scale).to(dtype)

    def args(B, n, d_model, d_ff, dtype, scale=1.0):
        """X (B, n, d_model), W1 (d_model, d_ff), b1 (d_ff,), W2 (d_ff, d_model), b2 (d_model,):
        random signs everywhere, so about half the hidden units and outputs are negative."""
        return (randn(B, n, d_model, dtype=dtype, scale=scale), randn(d_model, d_ff, dtype=dtype),
                randn(d_ff, dtype=dtype), randn(d_ff, d_model, dtype=dtype), randn(d_model, dtype=dtype))

    def case(name, points, a, dtype):
        return Case(name, points, [
            call("position_wise_ffn", *a, check=check(label="output", **_tol(dtype))),
        ])  # values only: dtypes and return types are graded once, in their own case

    f32, f64 = torch.float32, torch.float64
    return [
        case("float64, batch 2, 3 positions, d_model 4, d_ff 16", 2.0, args(2, 3, 4, 16, f64), f64),
        case("float32, batch 5 > 3 positions, d_model 6, d_ff 12", 2.0, args(5, 3, 6, 12, f32), f32),
        case("float64, batch 1, 7 positions, d_ff 3 < d_model 5", 2.0, args(1, 7, 5, 3, f64), f64),
        case("float32, batch 4, one position, d_model 8, d_ff 32", 1.0, args(4, 1, 8, 32, f32), f32),
        Case("types: one torch tensor in the dtype of X (float32 and float64); inputs left unchanged", 1.0, [
            get("position_wise_ffn", save="f"),
            *returns(ref("f"), *args(2, 3, 4, 8, f64), items=0, label="position_wise_ffn", fail=TYPES_FAIL),
            *returns(ref("f"), *args(2, 3, 4, 8, f32), items=0, label="position_wise_ffn", fail=TYPES_FAIL),
            # The very same tensors twice: X or a bias changed in place changes the second answer.
            *again("position_wise_ffn", inputs(*(same := args(2, 3, 4, 8, f32))), inputs(*same),
                   check=check(label="output", **_tol(f32)), fail=UNCHANGED_FAIL)]),
    ]
