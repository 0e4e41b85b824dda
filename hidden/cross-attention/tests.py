"""Hidden cases for cross-attention: decoders shorter and longer than the encoder (n != m
everywhere, so keys taken from the decoder show), padded encoders whose lengths fall below n,
d_k unlike d (so a scale of √d shows), large scores; then the contract."""

import torch

from grader.authoring import case, contract, draw, picked

LARGE_HINT = {"unless": "calls_softmax", "en": "Large scores must not overflow: use torch.softmax.",
              "zh": "分数很大时不能溢出：请使用 torch.softmax。"}
f32, f64 = torch.float32, torch.float64


def build(rng: torch.Generator) -> list:
    randn = draw(rng)

    def args(B, n, m, d, d_k, d_v, dtype, scale_q=1.0):  # dec, enc, W_q, W_k, W_v
        return (randn(B, n, d, dtype=dtype), randn(B, m, d, dtype=dtype),
                randn(d, d_k, dtype=dtype, scale=scale_q), randn(d, d_k, dtype=dtype), randn(d, d_v, dtype=dtype))

    def lens(B, n, m):  # one length below n (a mask on the queries shows), one with no padding
        out = torch.randint(1, m + 1, (B,), generator=rng)
        out[0], out[-1] = min(n, m) - 1, m
        return out

    def attend(*a, **kw):  # the weights first: the earlier stage is the one named
        return picked("cross_attention", *a, order=((1, "weights"), (0, "output")), **kw)

    return [
        case(("no padding, float64, decoder 3 < encoder 5, batch 2", "无填充，float64，解码器 3 < 编码器 5，批大小 2"),
             2, *attend(*args(2, 3, 5, 6, 4, 3, f64))),
        case(("no padding, float32, decoder 4 > encoder 2, batch 5", "无填充，float32，解码器 4 > 编码器 2，批大小 5"),
             2, *attend(*args(5, 4, 2, 4, 8, 2, f32))),
        case(("padded encoder, float64, decoder 4 < encoder 6, d_k != d_v",
              "带填充的编码器，float64，解码器 4 < 编码器 6，d_k != d_v"),
             2, *attend(*args(3, 4, 6, 5, 3, 2, f64), enc_valid_lens=lens(3, 4, 6))),
        case(("padded encoder, float32, decoder 3 < encoder 4, batch 5", "带填充的编码器，float32，解码器 3 < 编码器 4，批大小 5"),
             1, *attend(*args(5, 3, 4, 6, 2, 3, f32), enc_valid_lens=lens(5, 3, 4))),
        case(("padded encoder, float64, decoder 6 > encoder 3", "带填充的编码器，float64，解码器 6 > 编码器 3"),
             1, *attend(*args(2, 6, 3, 4, 6, 2, f64), enc_valid_lens=torch.tensor([2, 1]))),
        # W_q scaled by 200: scores above a thousand, where a hand-written exp overflows float64
        case(("large scores, float64, padded encoder", "很大的分数，float64，带填充的编码器"), 1,
             *attend(*args(3, 2, 5, 8, 4, 2, f64, scale_q=200.0), enc_valid_lens=torch.tensor([3, 5, 1])),
             hint=LARGE_HINT),
        contract("cross_attention", *args(2, 3, 4, 4, 2, 3, f64), enc_valid_lens=torch.tensor([3, 4]),
                 names=("output", "weights"),
                 name=("types: torch tensors in the dtype of dec (float32 and float64); inputs left unchanged",
                       "类型：dtype 与 dec 相同的 torch 张量（float32 和 float64）；输入不被修改")),
    ]
