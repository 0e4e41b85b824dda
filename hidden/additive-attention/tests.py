"""Hidden cases for additive-attention: scores and attention, unequal widths, valid lengths, errors."""

import torch

from grader.authoring import case, draw, outputs, picked, tol
from grader.spec import again, call, check, get, inputs, ref, returns

TYPES_FAIL = {"en": "`additive_scores` and `additive_attention` must return torch tensors with the dtype "
                    "of `q` (float32 in, float32 out; float64 in, float64 out): no numpy, no casts.",
              "zh": "`additive_scores` 和 `additive_attention` 必须返回 dtype 与 `q` 相同的 torch 张量"
                    "（float32 进 float32 出，float64 进 float64 出）：不要返回 numpy，也不要转换类型。",
              "mistake": "wrong-return-type"}
UNCHANGED_FAIL = {"en": "`additive_attention` changes the caller's `q`, `k`, `v`, weights or `valid_lens` in place (`+=`, `/=`, `.div_()`, "
                        "`masked_fill_`...): compute on new tensors and leave the inputs as they were.",
                  "zh": "`additive_attention` 原地修改了调用者传入的张量（`+=`、`/=`、`.div_()`、`masked_fill_` 等）："
                        "请在新张量上计算，不要改动输入。", "mistake": "changes-input"}

LARGE_HINT = {"unless": "calls_softmax",  # its advice is for code that does not call it yet
              "en": "Large scores must not overflow: use torch.softmax.",
              "zh": "分数很大时不能溢出：请使用 torch.softmax。"}
ORDER = ((1, "weights"), (0, "context"))  # the weights first: the earlier stage is the one named
f32, f64 = torch.float32, torch.float64


def build(rng: torch.Generator) -> list:
    randn = draw(rng)

    def params(d_q, d_k, h, dtype, scale_v=1.0):
        """W_q (h, d_q), W_k (h, d_k), w_v (h,) scaled so tanh is neither linear nor saturated."""
        return (randn(h, d_q, dtype=dtype, scale=d_q ** -0.5 * 1.5),
                randn(h, d_k, dtype=dtype, scale=d_k ** -0.5 * 1.5),
                randn(h, dtype=dtype, scale=scale_v))

    def lens(B, m):
        out = torch.randint(1, m + 1, (B,), generator=rng)
        out[0] = m - 2  # at least one row with real padding
        out[-1] = 1  # and one shorter than the queries, so lengths applied to the queries show
        return out

    def scores(B, n, m, d_q, d_k, h, dtype):  # values only: the dtype is graded once, in its own case
        q, k = randn(B, n, d_q, dtype=dtype), randn(B, m, d_k, dtype=dtype)
        return outputs("additive_scores", q, k, *params(d_q, d_k, h, dtype), labels=("scores",))

    def attend(*args, **kw):
        return picked("additive_attention", *args, order=ORDER, **kw)

    def attention(B, n, m, d_q, d_k, h, d_v, dtype, masked, scale_v=1.0):
        q, k, v = randn(B, n, d_q, dtype=dtype), randn(B, m, d_k, dtype=dtype), randn(B, m, d_v, dtype=dtype)
        args = (q, k, v, *params(d_q, d_k, h, dtype, scale_v))
        return attend(*args, **({"valid_lens": lens(B, m)} if masked else {}))

    def empty_row():
        """A batch row with valid length 0: every key is padding, so with the statement's -1e6
        fill its scores are all equal and its weights uniform, 1/m each (a fill of -inf, or exp()
        terms set to 0, gives 0/0 there; -1e6 added instead of filled leaves them unequal)."""
        B, n, m, d_q, d_k, h, d_v = 3, 2, 4, 3, 5, 6, 2
        args = (randn(B, n, d_q, dtype=f64), randn(B, m, d_k, dtype=f64), randn(B, m, d_v, dtype=f64),
                *params(d_q, d_k, h, f64))
        return attend(*args, valid_lens=torch.tensor([2, 0, 4]))

    def large32():
        """float32 scores in the hundreds (the statement promises both). Drawn so that in every
        row the best visible key leads the next by 12 or more: the weights are then 0 or 1 far
        inside float32's tolerance, so any stable softmax passes, while exp() of a score above
        88 overflows float32 (exp / sum gives inf / inf = NaN)."""
        B, n, m, d_q, d_k, h, d_v = 3, 2, 4, 4, 3, 6, 2
        valid = torch.tensor([4, 3, 2])
        hide = torch.arange(m)[None, None, :] >= valid[:, None, None]
        for _ in range(5000):
            q, k, v = randn(B, n, d_q), randn(B, m, d_k), randn(B, m, d_v)  # float32
            W = params(d_q, d_k, h, f32, 100.0)
            Wq, Wk, wv = (t.double() for t in W)
            s = torch.tanh((q.double() @ Wq.T)[:, :, None, :] + (k.double() @ Wk.T)[:, None, :, :]) @ wv
            top = s.masked_fill(hide, -1e6).topk(2, dim=-1).values
            if float(top[..., 0].max()) > 150 and bool((top[..., 0] - top[..., 1] >= 12).all()):
                break
        return attend(q, k, v, *W, valid_lens=valid)

    q, k = randn(2, 3, 4), randn(2, 5, 3)
    return [
        case(("scores, float64, d_q != d_k, batch 3 > queries 2", "分数，float64，d_q != d_k，批大小 3 > 查询数 2"), 2.0,
             *scores(3, 2, 4, 5, 3, 6, f64)),
        case(("scores, float32, d_q == d_k, batch 2 < queries 5", "分数，float32，d_q == d_k，批大小 2 < 查询数 5"), 2.0,
             *scores(2, 5, 3, 4, 4, 8, f32)),
        case(("attention, float32, no mask, batch 4 > queries 3", "注意力，float32，无掩码，批大小 4 > 查询数 3"), 2.0,
             *attention(4, 3, 5, 6, 2, 4, 3, f32, False)),
        case(("attention, float64, valid lengths, d_q == d_k", "注意力，float64，有效长度，d_q == d_k"), 2.0,
             *attention(2, 4, 6, 3, 3, 5, 2, f64, True)),
        case(("attention, float32, valid lengths, batch 5 > queries 2", "注意力，float32，有效长度，批大小 5 > 查询数 2"),
             1.0, *attention(5, 2, 4, 3, 7, 6, 4, f32, True)),
        case(("large w_v (scores in the hundreds), float64, valid lengths", "很大的 w_v（分数达数百），float64，有效长度"),
             2.0, *attention(3, 3, 5, 4, 4, 6, 2, f64, True, scale_v=100.0), hint=LARGE_HINT),
        case(("types: torch tensors in the dtype of q (float32 and float64); inputs left unchanged",
              "类型：dtype 与 q 相同的 torch 张量（float32 和 float64）；输入不被修改"), 1.0,
             get("additive_scores", save="s"),
             *returns(ref("s"), randn(2, 3, 4, dtype=f64), randn(2, 5, 3, dtype=f64),
                      *params(4, 3, 6, f64), label="additive_scores", fail=TYPES_FAIL),
             get("additive_attention", save="a"),
             *returns(ref("a"), randn(2, 3, 4), randn(2, 5, 3), randn(2, 5, 2), *params(4, 3, 6, f32),
                      items=2, label="additive_attention", fail=TYPES_FAIL),
             # float64 in, float64 out (blind set 2026-12-07: a float32 softmax passed every value)
             *returns(ref("a"), randn(2, 3, 4, dtype=f64), randn(2, 5, 3, dtype=f64),
                      randn(2, 5, 2, dtype=f64), *params(4, 3, 6, f64),
                      items=2, label="additive_attention", fail=TYPES_FAIL),
             # The very same tensors twice: v scaled or q shifted in place changes the second answer.
             *again("additive_attention", inputs(*(same := (randn(2, 3, 4), randn(2, 5, 3), randn(2, 5, 2),
                                                            *params(4, 3, 6, f32), torch.tensor([3, 5])))),
                    inputs(*same), check=[check(label=label, select=i, **tol(f32)) for i, label in ORDER],
                    fail=UNCHANGED_FAIL)),
        case(("bad input: W_q does not match the query width", "错误输入：W_q 与查询宽度不匹配"), 1.0,
             call("additive_scores", q, k, randn(6, 5), randn(6, 3), randn(6), raises="ValueError")),
        case(("bad input: w_v has the wrong hidden size", "错误输入：w_v 的隐藏维度不对"), 1.0,
             call("additive_scores", q, k, randn(6, 4), randn(6, 3), randn(5), raises="ValueError")),
        # drawn last, so the cases above keep their inputs
        case(("valid length 0: a batch row with no real key, float64", "有效长度为 0：某一批次行没有真实的键，float64"),
             1.0, *empty_row()),
        case(("large w_v (scores in the hundreds), float32, valid lengths", "很大的 w_v（分数达数百），float32，有效长度"),
             1.0, *large32(), hint=LARGE_HINT),
    ]
