"""Hidden cases for cross-attention: decoders shorter and longer than the encoder (n != m
everywhere, so keys taken from the decoder show in the weights' shape), padded encoders whose
lengths fall below n, d_k unlike d, large scores, types and unchanged inputs."""

import torch

from grader.spec import Case, again, call, check, get, inputs, ref, returns, zh_names

TYPES_FAIL = {"en": "`cross_attention` must return torch tensors `(output, weights)` with the dtype of "
                    "`dec` (float32 in, float32 out; float64 in, float64 out): no numpy, no casts.",
              "zh": "`cross_attention` 必须返回 dtype 与 `dec` 相同的 torch 张量 `(output, weights)`"
                    "（float32 进 float32 出，float64 进 float64 出）：不要返回 numpy，也不要转换类型。",
              "mistake": "wrong-return-type"}
UNCHANGED_FAIL = {"en": "`cross_attention` changes the caller's `dec`, `enc`, projections or `enc_valid_lens` "
                        "in place (`+=`, `/=`, `.div_()`, `masked_fill_`...): compute on new tensors.",
                  "zh": "`cross_attention` 原地修改了调用者传入的张量（`+=`、`/=`、`.div_()`、`masked_fill_` "
                        "等）：请在新张量上计算，不要改动输入。", "mistake": "changes-input"}
LARGE_HINT = {"unless": "calls_softmax", "en": "Large scores must not overflow: use torch.softmax.",
              "zh": "分数很大时不能溢出：请使用 torch.softmax。"}


def _tol(dtype):
    return {"rtol": 1e-5, "atol": 1e-6 if dtype == torch.float64 else 1e-5}


# Each case's name on a Chinese page (the English name stays the gradebook's key).
ZH_NAMES = {
    "no padding, float64, decoder 3 < encoder 5, batch 2": "无填充，float64，解码器 3 < 编码器 5，批大小 2",
    "no padding, float32, decoder 4 > encoder 2, batch 5": "无填充，float32，解码器 4 > 编码器 2，批大小 5",
    "padded encoder, float64, decoder 4 < encoder 6, d_k != d_v": "带填充的编码器，float64，解码器 4 < 编码器 6，d_k != d_v",
    "padded encoder, float32, decoder 3 < encoder 4, batch 5": "带填充的编码器，float32，解码器 3 < 编码器 4，批大小 5",
    "padded encoder, float64, decoder 6 > encoder 3": "带填充的编码器，float64，解码器 6 > 编码器 3",
    "large scores, float64, padded encoder": "很大的分数，float64，带填充的编码器",
    "types: torch tensors in the dtype of dec (float32 and float64); inputs left unchanged":
        "类型：dtype 与 dec 相同的 torch 张量（float32 和 float64）；输入不被修改",
}


@zh_names(ZH_NAMES)
def build(rng: torch.Generator) -> list[Case]:
    def randn(*shape, dtype=torch.float32, scale=1.0):
        return torch.randn(*shape, generator=rng, dtype=torch.float64).mul(scale).to(dtype)

    def args(B, n, m, d, d_k, d_v, dtype, scale_q=1.0):
        """dec (B, n, d), enc (B, m, d), W_q, W_k (d, d_k), W_v (d, d_v); d != d_k always, so
        a scale of √d shows."""
        return (randn(B, n, d, dtype=dtype), randn(B, m, d, dtype=dtype),
                randn(d, d_k, dtype=dtype, scale=scale_q), randn(d, d_k, dtype=dtype),
                randn(d, d_v, dtype=dtype))

    def lens(B, n, m):
        out = torch.randint(1, m + 1, (B,), generator=rng)
        out[0] = min(n, m) - 1  # real padding, and a length below n: a mask on the queries shows
        out[-1] = m  # and one sentence without padding
        return out

    def case(name, points, a, dtype, valid_lens=None, hint=None):
        kw = {} if valid_lens is None else {"enc_valid_lens": valid_lens}
        tol = _tol(dtype)
        return Case(name, points, hint=hint, steps=[
            call("cross_attention", *a, **kw, check=check(label="weights", select=1, **tol)),
            call("cross_attention", *a, **kw, check=check(label="output", select=0, **tol)),
        ])  # values only: dtypes and return types are graded once, in their own case

    f32, f64 = torch.float32, torch.float64
    return [
        case("no padding, float64, decoder 3 < encoder 5, batch 2", 2.0, args(2, 3, 5, 6, 4, 3, f64), f64),
        case("no padding, float32, decoder 4 > encoder 2, batch 5", 2.0, args(5, 4, 2, 4, 8, 2, f32), f32),
        case("padded encoder, float64, decoder 4 < encoder 6, d_k != d_v", 2.0, args(3, 4, 6, 5, 3, 2, f64),
             f64, lens(3, 4, 6)),
        case("padded encoder, float32, decoder 3 < encoder 4, batch 5", 1.0, args(5, 3, 4, 6, 2, 3, f32),
             f32, lens(5, 3, 4)),
        case("padded encoder, float64, decoder 6 > encoder 3", 1.0, args(2, 6, 3, 4, 6, 2, f64), f64,
             torch.tensor([2, 1])),
        # W_q scaled by 200: scores above a thousand, where a hand-written exp overflows float64
        case("large scores, float64, padded encoder", 1.0, args(3, 2, 5, 8, 4, 2, f64, scale_q=200.0), f64,
             torch.tensor([3, 5, 1]), hint=LARGE_HINT),
        Case("types: torch tensors in the dtype of dec (float32 and float64); inputs left unchanged", 1.0, [
            get("cross_attention", save="f"),
            *returns(ref("f"), *args(2, 3, 4, 4, 2, 3, f64), items=2, label="cross_attention",
                     fail=TYPES_FAIL),
            *returns(ref("f"), *args(2, 3, 4, 4, 2, 3, f32), enc_valid_lens=torch.tensor([2, 4]), items=2,
                     label="cross_attention", fail=TYPES_FAIL),
            # The very same tensors twice: dec scaled or enc shifted in place changes the second answer.
            *again("cross_attention", inputs(*(same := args(2, 3, 4, 4, 2, 3, f32)),
                                             enc_valid_lens=(kept := torch.tensor([3, 4]))),
                   inputs(*same, enc_valid_lens=kept),
                   check=[check(label="weights", select=1, **_tol(f32)),
                          check(label="output", select=0, **_tol(f32))], fail=UNCHANGED_FAIL)]),
    ]
