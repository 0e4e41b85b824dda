"""Hidden cases for masked-softmax: none/1-D/2-D valid lengths, both dtypes, large scores, errors."""

import torch

from grader.authoring import case, outputs
from grader.spec import again, call, check, get, inputs, ref, returns

TOL = {"rtol": 1e-5, "atol": 1e-6}  # every check here, float32 included (weights lie in [0, 1])
TYPES_FAIL = {
    "en": "`masked_softmax` must return a torch.Tensor with the dtype of `X` (float32 in, float32 "
          "out; float64 in, float64 out): no numpy, no `.float()` or `.double()` on the result.",
    "zh": "`masked_softmax` 必须返回 dtype 与 `X` 相同的 torch.Tensor（float32 进 float32 出，float64 进 "
          "float64 出）：不要返回 numpy，也不要对结果 `.float()` 或 `.double()`。", "mistake": "wrong-return-type"}
UNCHANGED_FAIL = {
    "en": "`masked_softmax` changes the caller's tensor in place (e.g. `X[mask] = -1e6` or "
          "`X.masked_fill_`): work on a copy (`X.masked_fill(...)`, `X.clone()`), never on the input.",
    "zh": "`masked_softmax` 原地修改了调用者的张量（例如 `X[mask] = -1e6` 或 `X.masked_fill_`）：请在副本上"
          "操作（`X.masked_fill(...)`、`X.clone()`），不要改动输入。", "mistake": "changes-input"}
HINT_LARGE = {
    "unless": "calls_softmax",  # its advice is for code that does not call it yet
    "en": "Large scores must not overflow: use torch.softmax, or subtract the row maximum before exp.",
    "zh": "分数很大时不能溢出：请使用 torch.softmax，或在取 exp 之前减去每行的最大值。",
}
HINT_EMPTY = {
    "en": "A query whose valid length is 0 sees no key: with every hidden score at -1e6 its scores are "
          "all equal and its weights uniform (1/m); -inf there gives 0/0 = NaN.",
    "zh": "有效长度为 0 的查询看不到任何键：把被遮蔽的分数都填成 -1e6 时，它的分数全部相等，权重均匀"
          "（1/m）；填 -inf 则得到 0/0 = NaN。",
}


def _lens(rng, shape, m):
    """Random lengths in 1..m that include at least one L < m (so an off-by-one shows)."""
    lens = torch.randint(1, m + 1, shape, generator=rng)
    lens.view(-1)[0] = max(1, m - 2)
    if lens.dim() == 2 and lens.shape[1] > 1:
        lens[:, 1] = m  # rows with different lengths per query (so a 2-D mix-up shows)
        lens[0, 0] = 1
    return lens


def _large(rng, shape, dtype, offset):
    """Scores around +offset / -offset (alternating batch rows): exp() overflows or underflows
    in every row, whatever the seed, while a stable softmax is unaffected by the shift."""
    sign = torch.tensor([1.0, -1.0], dtype=dtype).repeat(shape[0])[: shape[0]].view(-1, 1, 1)
    return offset * sign + 10 * torch.randn(*shape, generator=rng, dtype=dtype)


def _empty_lens(rng, B, n, m):
    """2-D lengths in 0..m with a 0 in every batch row (a query that may see no key), next to
    queries that see some keys, so a fill of -inf shows as NaN on those queries only."""
    lens = torch.randint(1, m + 1, (B, n), generator=rng)
    lens[torch.arange(B), torch.arange(B) % n] = 0
    return lens


def _again(X, lens, prefix):
    """``masked_softmax(X, lens)``, then again on that very X without a mask: its answer must be
    what a fresh copy gives (spec.again). -1e6 written into the hidden scores shows there."""
    return again("masked_softmax", inputs(X, lens), inputs(X, None),
                 check=check("allclose", label="weights", **TOL), fail=UNCHANGED_FAIL, prefix=prefix)


def build(rng: torch.Generator) -> list:
    f32, f64 = torch.float32, torch.float64

    def randn(*shape, dtype=f32):  # drawn in the dtype itself, as these cases always were
        return torch.randn(*shape, generator=rng, dtype=dtype)

    def weights(X, lens):  # values only: the dtype and the return type are graded once, in their own case
        return outputs("masked_softmax", X, lens, labels=("weights",), tol=TOL)

    def bad(X, lens):
        return call("masked_softmax", X, lens, raises="ValueError")

    return [
        case(("no mask (valid_lens=None), float32, B 2 < n 3", "无掩码（valid_lens=None），float32，B 2 < n 3"), 1.0,
             *weights(randn(2, 3, 5), None)),
        case(("1-D valid lengths, float64, batch 5 > queries 3", "一维有效长度，float64，批大小 5 > 查询数 3"), 2.0,
             *weights(randn(5, 3, 4, dtype=f64), _lens(rng, (5,), 4))),
        case(("1-D valid lengths, float32, batch 2 < queries 6", "一维有效长度，float32，批大小 2 < 查询数 6"), 2.0,
             *weights(randn(2, 6, 7), _lens(rng, (2,), 7))),
        case(("2-D valid lengths (one per query), float64, batch 3 < queries 4",
              "二维有效长度（每个查询一个），float64，批大小 3 < 查询数 4"), 2.0,
             *weights(randn(3, 4, 5, dtype=f64), _lens(rng, (3, 4), 5))),
        case(("2-D valid lengths (one per query), float32, batch 6 > queries 2",
              "二维有效长度（每个查询一个），float32，批大小 6 > 查询数 2"), 2.0,
             *weights(randn(6, 2, 6), _lens(rng, (6, 2), 6))),
        case(("returns a torch.Tensor in the dtype of X (float32 and float64)",
              "返回 dtype 与 X 相同的 torch.Tensor（float32 和 float64）"), 1.0,
             get("masked_softmax", save="f"),
             *returns(ref("f"), randn(2, 3, 4, dtype=f64), torch.tensor([2, 4]), label="masked_softmax",
                      fail=TYPES_FAIL),
             *returns(ref("f"), randn(2, 3, 4), None, label="masked_softmax", fail=TYPES_FAIL)),
        # In-place changes show in later answers: -1e6 written into X's hidden scores changes
        # what a call without a mask returns.
        case(("leaves X and valid_lens unchanged", "不修改 X 和 valid_lens"), 1.0,
             *_again(randn(3, 2, 5), torch.tensor([2, 5, 1]), "first"),
             *_again(randn(2, 2, 4, dtype=f64), torch.tensor([[1, 4], [3, 2]]), "second")),
        case(("large scores (hundreds), float32, 2-D valid lengths", "大分数（数百），float32，二维有效长度"), 1.0,
             *weights(_large(rng, (3, 3, 5), f32, 150.0), _lens(rng, (3, 3), 5)), hint=HINT_LARGE),
        case(("large scores (hundreds), float64, 1-D valid lengths", "大分数（数百），float64，一维有效长度"), 1.0,
             *weights(_large(rng, (4, 2, 6), f64, 800.0), _lens(rng, (4,), 6)), hint=HINT_LARGE),
        # Large scores too, so a softmax that overflows (NaN everywhere) is told apart from a
        # fill of -inf (NaN only on the queries with valid length 0).
        case(("valid length 0 (a query that sees no key), large scores, float32",
              "有效长度为 0（看不到任何键的查询），大分数，float32"), 1.0,
             *weights(_large(rng, (4, 3, 5), f32, 150.0), _empty_lens(rng, 4, 3, 5)), hint=HINT_EMPTY),
        case(("bad input: X is not 3-D", "错误输入：X 不是三维"), 1.0, bad(randn(4, 5), None)),
        case(("bad input: valid_lens has the wrong length or shape", "错误输入：valid_lens 的长度或形状不对"), 1.0,
             bad(randn(3, 2, 4), torch.tensor([1, 2])), bad(randn(3, 2, 4), torch.ones(3, 3, dtype=torch.long))),
    ]
