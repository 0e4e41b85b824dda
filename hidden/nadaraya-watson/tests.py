"""Hidden cases for nadaraya-watson: several widths w, both dtypes, far-away queries, errors."""

import torch

from grader.authoring import case, contract, picked
from grader.spec import call

TYPES = {"en": "`nw_predict` must return torch tensors `(pred, attention)` with the dtype of "
               "`x_query` (float32 in, float32 out; float64 in, float64 out): no numpy, no casts.",
         "zh": "`nw_predict` 必须返回 dtype 与 `x_query` 相同的 torch 张量 `(pred, attention)`"
               "（float32 进 float32 出，float64 进 float64 出）：不要返回 numpy，也不要转换类型。"}
UNCHANGED = {"en": "`nw_predict` changes the caller's `x_query`, `x_keys` or `y_values` in place (`+=`, `/=`, "
                   "`.div_()`, `masked_fill_`...): compute on new tensors and leave the inputs as they were.",
             "zh": "`nw_predict` 原地修改了调用者传入的张量（`+=`、`/=`、`.div_()`、`masked_fill_` 等）："
                   "请在新张量上计算，不要改动输入。"}
FAR_HINT = {"unless": "calls_softmax",
            "en": "exp() of a very negative score is 0 for every key: use torch.softmax "
                  "(it subtracts the row maximum) instead of exp / sum.",
            "zh": "分数极小时每个键的 exp() 都是 0：请用 torch.softmax（它会先减去每行"
                  "最大值），不要手写 exp / sum。"}
f32, f64 = torch.float32, torch.float64


def build(rng: torch.Generator) -> list:
    def rand(*shape, dtype, lo=0.0, hi=5.0):
        return (lo + (hi - lo) * torch.rand(*shape, generator=rng, dtype=torch.float64)).to(dtype)

    def toy(m, dtype):
        """D2L-style data: sorted x in [0, 5), y = 2 sin x + x^0.8 plus a little noise."""
        x = torch.sort(rand(m, dtype=torch.float64)).values
        y = 2 * torch.sin(x) + x ** 0.8 + 0.5 * torch.randn(m, generator=rng, dtype=torch.float64)
        return x.to(dtype), y.to(dtype)

    def predict(*args, order=((1, "attention"), (0, "pred"))):  # values only: the dtype is its own case
        return picked("nw_predict", *args, order=order)

    xk64, yv64 = toy(12, f64)
    xk32, yv32 = toy(5, f32)
    # Far queries: keys 10 apart, queries about halfway between, w = 10, so (d*w)^2 / 2 is
    # 800 or more for every key and exp() underflows to exactly 0 in float32 and float64, except
    # for the first query, 2 from its key (score -200). The last is 5 past the last key (-1250, one
    # key far ahead of the rest): one maximum for the whole table instead of each row's own
    # leaves that last row's exp() all 0, in float32 and float64.
    far_keys = 10.0 * torch.arange(6, dtype=f64) + rand(6, dtype=f64, lo=-0.5, hi=0.5)
    far_q = far_keys[:-1] + 5.0 + rand(5, dtype=f64, lo=-0.5, hi=0.5)
    far_q[0], far_q[-1] = far_keys[0] + 2.0, far_keys[-1] + 5.0
    far_y = torch.randn(6, generator=rng, dtype=f64)
    only_pred, only_attention = ((0, "pred"),), ((1, "attention"),)
    return [
        case(("default w = 1, float64, 6 queries < 12 keys", "默认 w = 1，float64，6 个查询 < 12 个键"), 2.0,
             *predict(rand(6, dtype=f64), xk64, yv64)),
        case(("w = 2.5, float32, 9 queries > 5 keys", "w = 2.5，float32，9 个查询 > 5 个键"), 2.0,
             *predict(rand(9, dtype=f32), xk32, yv32, 2.5)),
        case(("w = 0.7, float64, queries outside the data range", "w = 0.7，float64，查询在数据范围之外"), 2.0,
             *predict(rand(4, dtype=f64, lo=-2, hi=7), xk64, yv64, 0.7)),
        case(("w given as a 0-d tensor, float64", "w 为零维张量，float64"), 1.0,
             *predict(rand(3, dtype=f64), xk64, yv64, torch.tensor(1.8, dtype=f64))),
        case(("queries far from every key, w = 10, float64", "查询离所有键都很远，w = 10，float64"), 2.0,
             *predict(far_q, far_keys, far_y, 10.0), hint=FAR_HINT),
        case(("queries far from every key, w = 10, float32", "查询离所有键都很远，w = 10，float32"), 1.0,
             *predict(far_q.float(), far_keys.float(), far_y.float(), 10.0)),
        # Shapes that a .squeeze() collapses: one query gives pred (1,), not (); one key gives
        # attention (n, 1), not (n,). The codec keeps 0-d results 0-d, so these are seen.
        case(("one query, then one key: shapes (1,) and (1, m), (n,) and (n, 1)",
              "一个查询，再一个键：形状 (1,) 和 (1, m)，(n,) 和 (n, 1)"), 1.0,
             *predict(rand(1, dtype=f64), xk64, yv64, 1.3, order=only_pred),
             *predict(rand(1, dtype=f64), xk64, yv64, 1.3, order=only_attention),
             *predict(rand(4, dtype=f64), xk64[:1], yv64[:1], 0.9, order=only_attention),
             *predict(rand(4, dtype=f64), xk64[:1], yv64[:1], 0.9, order=only_pred)),
        # float32 on data of its own; the very same tensors twice: x_query shifted or y_values
        # scaled in place changes the second answer.
        contract("nw_predict", rand(3, dtype=f64), xk64, yv64, names=("pred", "attention"),
                 float32=(rand(3, dtype=f32), xk32, yv32, 2.0), same=(rand(4, dtype=f64), xk64, yv64, 1.5),
                 types=TYPES, unchanged=UNCHANGED,
                 name=("types: torch tensors in the dtype of the inputs; inputs left unchanged",
                       "类型：dtype 与输入相同的 torch 张量；输入不被修改")),
        case(("bad input: x_keys and y_values of different lengths", "错误输入：x_keys 与 y_values 长度不同"), 1.0,
             call("nw_predict", rand(3, dtype=f64), xk64, yv64[:-1], raises="ValueError")),
        case(("bad input: a 2-D x_query", "错误输入：x_query 是二维的"), 1.0,
             call("nw_predict", rand(3, 1, dtype=f64), xk64, yv64, raises="ValueError")),
    ]
