"""Hidden cases for additive-attention: scores and attention, unequal widths, valid lengths, errors."""

import torch

from grader.spec import Case, call, check


def _tol(dtype):
    return {"rtol": 1e-5, "atol": 1e-6 if dtype == torch.float64 else 1e-5}


def build(rng: torch.Generator) -> list[Case]:
    def randn(*shape, dtype=torch.float32, scale=1.0):
        return torch.randn(*shape, generator=rng, dtype=torch.float64).mul(scale).to(dtype)

    def params(d_q, d_k, h, dtype, scale_v=1.0):
        """W_q (h, d_q), W_k (h, d_k), w_v (h,) scaled so tanh is neither linear nor saturated."""
        return (randn(h, d_q, dtype=dtype, scale=d_q ** -0.5 * 1.5),
                randn(h, d_k, dtype=dtype, scale=d_k ** -0.5 * 1.5),
                randn(h, dtype=dtype, scale=scale_v))

    def lens(B, m):
        out = torch.randint(1, m + 1, (B,), generator=rng)
        out[0] = m - 2  # at least one row with real padding
        return out

    def scores_case(name, B, n, m, d_q, d_k, h, dtype, points=2.0):
        q, k = randn(B, n, d_q, dtype=dtype), randn(B, m, d_k, dtype=dtype)
        W = params(d_q, d_k, h, dtype)
        return Case(name, points, [
            call("additive_scores", q, k, *W, check=check(label="scores", **_tol(dtype))),
            call("additive_scores", q, k, *W, check=check("dtype", label="scores")),
        ])

    def attn_case(name, B, n, m, d_q, d_k, h, d_v, dtype, masked, scale_v=1.0, hint=None):
        q, k, v = randn(B, n, d_q, dtype=dtype), randn(B, m, d_k, dtype=dtype), randn(B, m, d_v, dtype=dtype)
        args = (q, k, v, *params(d_q, d_k, h, dtype, scale_v))
        kw = {"valid_lens": lens(B, m)} if masked else {}
        tol = _tol(dtype)
        return Case(name, 2.0, hint=hint, steps=[
            call("additive_attention", *args, **kw, check=check(label="weights", select=1, **tol)),
            call("additive_attention", *args, **kw, check=check(label="context", select=0, **tol)),
            call("additive_attention", *args, **kw, check=check("dtype", label="context", select=0)),
        ])

    f32, f64 = torch.float32, torch.float64
    q, k = randn(2, 3, 4), randn(2, 5, 3)
    return [
        scores_case("scores, float64, d_q != d_k, batch 3 > queries 2", 3, 2, 4, 5, 3, 6, f64),
        scores_case("scores, float32, d_q == d_k, batch 2 < queries 5", 2, 5, 3, 4, 4, 8, f32),
        attn_case("attention, float32, no mask, batch 4 > queries 3", 4, 3, 5, 6, 2, 4, 3, f32, False),
        attn_case("attention, float64, valid lengths, d_q == d_k", 2, 4, 6, 3, 3, 5, 2, f64, True),
        attn_case("attention, float32, valid lengths, batch 5 > queries 2", 5, 2, 4, 3, 7, 6, 4, f32, True),
        attn_case("large w_v (scores in the hundreds), float64, valid lengths", 3, 3, 5, 4, 4, 6, 2,
                  f64, True, scale_v=100.0,
                  hint={"en": "Large scores must not overflow: use torch.softmax.",
                        "zh": "分数很大时不能溢出：请使用 torch.softmax。"}),
        Case("bad input: W_q does not match the query width", 1.0, [
            call("additive_scores", q, k, randn(6, 5), randn(6, 3), randn(6), raises="ValueError"),
        ]),
        Case("bad input: w_v has the wrong hidden size", 1.0, [
            call("additive_scores", q, k, randn(6, 4), randn(6, 3), randn(5), raises="ValueError"),
        ]),
    ]
