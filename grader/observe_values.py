"""Stage observations on plain values (no weights): a scores table that splits into a query
part plus a key part or stays inside tanh's range, a sinusoidal table read column by column, a
constant factor, the right columns in another order, a constant output. Used by
grader/observe.py, which decides the stage; everything here reads only the learner's values
and the reference's, on the trusted side, and says a property of the learner's own values.
"""

from __future__ import annotations

import numpy as np

from grader.model import TestCase
from grader.premises import UNKNOWN, Premises


def mixed(s: np.ndarray) -> float:
    """max |s[i, j] − s[i, 0] − s[0, j] + s[0, 0]|: 0 when s is a row part plus a column part."""
    return float(np.abs(s - s[..., :, :1] - s[..., :1, :] + s[..., :1, :1]).max())


def constant_finding(label: str, mine: np.ndarray, want: np.ndarray,
                     premises: Premises = UNKNOWN) -> tuple[str, str] | None:
    """Every entry the same number while the right values are not all equal (the starter's
    placeholder named only while a placeholder line of the starter is still in the code)."""
    if mine.size < 2 or not np.isfinite(mine).all() or np.ptp(mine) > 1e-12 \
            or np.ptp(np.nan_to_num(want)) < 1e-9:
        return None
    c = f"{float(mine.reshape(-1)[0]):.4g}".replace("-", "−")
    if premises.keeps_placeholder:
        return (f"every entry of `{label}` is {c}, while the right entries are not all equal (if this "
                "is still the starter's placeholder, this is the part to write).",
                f"`{label}` 的每个元素都是 {c}，而正确的元素并不全相等（如果这里仍是初始代码的占位值，这就是要写的部分）。")
    return (f"every entry of `{label}` is {c}, while the right entries are not all equal: the values "
            "do not depend on the inputs the way they should.",
            f"`{label}` 的每个元素都是 {c}，而正确的元素并不全相等：结果没有按应有的方式依赖输入。")


def rounded_finding(label: str, mine: np.ndarray, want: np.ndarray) -> tuple[str, str] | None:
    """Every entry within half a unit of the d-th decimal of the right one and itself written
    with at most d decimals (d = 0…4), while the right values are not: rounded answers."""
    if mine.size < 2 or not (np.isfinite(mine).all() and np.isfinite(want).all()):
        return None
    size = max(1.0, float(np.abs(want).max()))
    for d in range(5):
        step = 10.0 ** -d
        on_grid = np.abs(mine - np.round(mine, d)) <= 1e-6 * size
        off = np.abs(mine - want)
        if on_grid.all() and (off <= step / 2 + 1e-6 * size).all() and (off > 1e-6 * size).any() \
                and not (np.abs(want - np.round(want, d)) <= 1e-6 * size).all():
            half = f"{step / 2:g}"
            return (f"every entry of `{label}` is within {half} of the right one and has at most {d} "
                    f"decimal{'s' if d != 1 else ''}: the values look rounded. Return them unrounded "
                    "(round only what you print).",
                    f"`{label}` 的每个元素与正确值相差都不超过 {half}，且最多只有 {d} 位小数：看起来结果被四舍五入了。"
                    "请返回未经舍入的值（只在打印时舍入）。")
    return None


def transposed_finding(label: str, mine: np.ndarray, want: np.ndarray,
                       weights: bool) -> tuple[str, str] | None:
    """Square (…, n, n) values that are the transpose of the right ones (scores), or the softmax
    of the transposed scores (weights: log w − log wantᵀ is then a row part plus a column part)."""
    if mine.ndim < 2 or mine.shape[-1] != mine.shape[-2] or mine.shape[-1] < 2:
        return None
    flip = np.swapaxes(want, -1, -2)
    if np.allclose(mine, want, rtol=1e-4, atol=1e-6) or np.allclose(want, flip, rtol=1e-4, atol=1e-6):
        return None
    if weights:
        if not ((mine > 1e-12).all() and (want > 1e-12).all()):
            return None
        lm, lw = np.log(mine), np.log(want)
        if not (mixed(lm - np.log(flip)) < 1e-4 and mixed(lm - lw) > 1e-2):
            return None
        return (f"`{label}` is the softmax of the transposed scores: row i is computed from what should "
                "be column i (key i against every query). The scores are Q·Kᵀ, row i = query i against "
                "every key.",
                f"`{label}` 是对转置后的分数做的 softmax：第 i 行用的是本应在第 i 列的分数（键 i 对所有查询）。分数应为 "
                "Q·Kᵀ，第 i 行是查询 i 对所有键的分数。")
    if not np.allclose(mine, flip, rtol=1e-4, atol=1e-6):
        return None
    return (f"`{label}` is the transpose of the right one: row i holds key i against every query. The "
            "scores are Q·Kᵀ, row i = query i against every key.",
            f"`{label}` 是正确结果的转置：第 i 行是键 i 对所有查询的分数。分数应为 Q·Kᵀ，第 i 行是查询 i 对所有键的分数。")


def nan_finding(label: str, mine: np.ndarray, want: np.ndarray, hidden: np.ndarray | None,
                premises: Premises = UNKNOWN,
                scores: np.ndarray | None = None) -> tuple[str, str] | None:
    """Where NaN/inf appear (right values finite), told against which keys the case hides;
    ``scores`` (the normalised inputs, when the step's input is them) tell an exp that
    overflows from one that underflows; code that calls a library softmax is not told to."""
    if mine.ndim < 2 or np.isfinite(mine).all() or not np.isfinite(want).all():
        return None
    bad = ~np.isfinite(mine).all(axis=-1)  # rows with NaN/inf
    rest_right = bool(np.allclose(mine[~bad], want[~bad], rtol=1e-4, atol=1e-6)) if (~bad).any() else False
    k, total = int(bad.sum()), int(bad.size)
    if hidden is not None and hidden.shape == mine.shape:
        empty = hidden.all(axis=-1)
        if empty.any() and np.array_equal(bad, empty):
            wr = want[empty]
            uniform = bool(np.allclose(wr, 1.0 / mine.shape[-1], atol=1e-6))
            head = (f"`{label}` is NaN exactly in the {k} row{'s' if k != 1 else ''} whose keys are all "
                    f"hidden{' and right in every other row' if rest_right else ''}",
                    f"`{label}` 恰好在所有键都被遮蔽的 {k} 行中为 NaN{'，其余各行都正确' if rest_right else ''}")
            if premises.calls_softmax and not premises.writes_large_fill:
                # softmax of finite scores is finite: the keys were hidden after it
                return (f"{head[0]}: your code calls softmax and writes no large negative fill, so the "
                        "hidden keys are set to 0 after the softmax and the row is divided by its sum "
                        "again, which is 0 in a row with no visible key (0/0 is NaN). Hide the keys in "
                        "the scores before the softmax, with a large negative fill such as −1e6"
                        f"{': such a row then comes out uniform (1/m)' if uniform else ''}.",
                        f"{head[1]}：你的代码调用了 softmax，却没有写很大的负填充值，因此被遮蔽的键是在 softmax 之后才置 0，"
                        "然后这一行又除以它的和，而在没有可见键的行中这个和为 0（0/0 是 NaN）。请在 softmax 之前、在分数中"
                        f"用很大的负数（如 −1e6）遮蔽这些键{'：这样的行就会得到均匀的权重（1/m）' if uniform else ''}。")
            en = zh = ""
            if uniform and premises.calls_softmax:
                en = (" The right weights there are uniform (1/m): with a finite fill (such as −1e6) "
                      "instead of −inf, a row of equal fills gives the same weight to every key.")
                zh = "正确的权重在这些行是均匀的（1/m）：用有限的填充值（如 −1e6）代替 −inf，一行相同的填充值会给每个键相同的权重。"
            elif uniform:
                en = (" The right weights there are uniform (1/m): with a finite fill (such as −1e6) and "
                      "a softmax that subtracts the row's maximum first (torch.softmax does), a row of "
                      "equal fills gives exp(0) = 1 for every key.")
                zh = ("正确的权重在这些行是均匀的（1/m）：用有限的填充值（如 −1e6），并用先减去该行最大值的 softmax"
                      "（torch.softmax 就是这样），一行相同的填充值对每个键都得到 exp(0) = 1。")
            return (f"{head[0]}: there every exp term came out 0 (a fill of −inf, or exp of a large "
                    f"negative fill), and 0/0 is NaN.{en}",
                    f"{head[1]}：这些行的每一项 exp 都是 0（填充了 −inf，或对很大的负填充值直接取 exp），而 0/0 是 NaN。{zh}")
        if (bad & empty).any():
            return None
    where = "" if hidden is None or not hidden.any() else " (rows where some key is visible)"
    where_zh = "" if hidden is None or not hidden.any() else "（这些行中有可见的键）"
    said = (f"`{label}` has NaN or inf in {k} of {total} rows{where}"
            f"{', and is right in every other row' if rest_right else ''}.",
            f"`{label}` 的 {total} 行中有 {k} 行出现 NaN 或 inf{where_zh}"
            f"{'，其余各行都正确' if rest_right else ''}。")
    if premises.calls_softmax and premises.writes_minus_inf and hidden is not None:
        # softmax of a row that is all −inf is NaN: the mask hides every key of rows that see some
        return (f"{said[0]} Each of those rows should see at least one key, but a softmax gives "
                "NaN for a row whose scores are all −inf: your mask hides every key there. Check "
                "which keys it hides in those rows (its diagonal, its offset, its True/False sense).",
                f"{said[1]}这些行本应至少能看到一个键，但一行分数全是 −inf 时 softmax 会得到 NaN：你的掩码在这些行"
                "遮蔽了所有键。请检查它在这些行遮蔽了哪些键（对角线、偏移、True/False 的含义）。")
    if premises.calls_softmax:  # a library softmax of finite scores is finite: a step around it
        return (f"{said[0]} Your code calls softmax, which gives finite weights for finite scores: "
                "the NaN comes from a step around it, such as a row whose scores are all −inf, or "
                "weights divided again by a row sum that is 0 (keys hidden after the softmax, then "
                "normalised). Hide keys in the scores before the softmax, with a large finite fill.",
                f"{said[1]}你的代码调用了 softmax，它对有限的分数给出有限的权重：NaN 来自它前后的某一步，例如某一行的分数"
                "全是 −inf，或在 softmax 之后遮蔽键、再除以一个为 0 的行和。请在 softmax 之前、在分数中用很大的有限负数遮蔽键。")
    flow = _exp_flow(scores, bad, hidden)
    if flow == "under":
        return (f"{said[0]} In those rows every score lies far below the largest score of the whole "
                "input, so exp of (score − that maximum) underflows to 0 for every key, and 0/0 is "
                "NaN: subtract each row's own maximum (`max(dim=-1, keepdim=True)`), not one for the "
                "whole tensor.",
                f"{said[1]}这些行的每个分数都远低于整个输入中的最大分数，因此 exp(分数 − 该最大值) 对每个键都下溢为 0，"
                "而 0/0 是 NaN：请减去每一行自己的最大值（`max(dim=-1, keepdim=True)`），而不是整个张量的一个最大值。")
    if flow == "over":
        return (f"{said[0]} Those rows hold scores of a few hundred: exp of them overflows to ∞ and "
                "∞/∞ is NaN. Subtracting each row's own maximum before exp (as torch.softmax does) "
                "keeps every row finite.",
                f"{said[1]}这些行中有几百大小的分数：取 exp 会上溢为 ∞，而 ∞/∞ 是 NaN。在 exp 之前减去每一行自己的最大值"
                "（torch.softmax 就是这样做的）可以让每一行都保持有限。")
    return (f"`{label}` has NaN or inf in {k} of {total} rows{where}"
            f"{', and is right in every other row' if rest_right else ''}. A NaN there is 0/0 or ∞/∞ "
            "when the values are normalised: the exp of every term of such a row came out 0 (all far "
            "below 0) or one came out ∞ (far above 0). Subtracting the row's own maximum before exp "
            "(as torch.softmax does) keeps every row finite.",
            f"`{label}` 的 {total} 行中有 {k} 行出现 NaN 或 inf{where_zh}"
            f"{'，其余各行都正确' if rest_right else ''}。这里的 NaN 来自归一化时的 0/0 或 ∞/∞：这一行的每一项 exp "
            "都变成了 0（都远小于 0），或某一项变成了 ∞（远大于 0）。在 exp 之前减去该行自己的最大值"
            "（torch.softmax 就是这样做的）可以让每一行都保持有限。")


def _exp_flow(scores: np.ndarray | None, bad: np.ndarray, hidden: np.ndarray | None) -> str | None:
    """"over" when every NaN row has a visible score above 80 (exp overflows float32 past
    ~88.7), "under" when every NaN row's visible scores all lie more than 110 below the
    input's largest (exp(score − global max) is then 0 in float32 and float64 alike: e^-110 is
    below float32's smallest normal… and the sum 0 as well in practice); None when unknown."""
    if scores is None or not bad.any():
        return None
    seen = ~hidden if hidden is not None and hidden.shape == scores.shape else np.ones(scores.shape, bool)
    vis = np.where(seen, scores, -np.inf)
    row_max = vis.max(axis=-1)[bad]
    if not np.isfinite(row_max).all():
        return None
    if (row_max > 80).all():
        return "over"
    if (row_max < float(vis.max()) - 110).all():
        return "under"
    return None


def _scores_finding(label: str, mine: np.ndarray, want: np.ndarray,
                    exercise: str | None) -> tuple[str, str] | None:
    """Additive scores (…, n, m) that split into a query part plus a key part, or stay inside
    (−1, 1); for any exercise, scores that are the transpose of the right ones."""
    if mine.ndim < 2 or mine.shape[-1] < 2 or mine.shape[-2] < 2:
        return None
    if exercise != "additive-attention":
        return transposed_finding(label, mine, want, weights=False)
    size = max(1.0, float(np.abs(want).max()))
    if mixed(mine) < 1e-6 * size and mixed(want) > 1e-3 * size:
        return ("your scores split into a part that depends only on the query plus a part that depends "
                "only on the key (s[i, j] − s[i, 0] − s[0, j] + s[0, 0] = 0 everywhere), so every query "
                "ranks the keys the same way; in w_vᵀ tanh(W_q q + W_k k) the tanh acts on the sum.",
                "你的分数可以拆成“只与查询有关的部分 + 只与键有关的部分”（处处有 s[i, j] − s[i, 0] − s[0, j] + "
                "s[0, 0] = 0），于是每个查询对键的排序都一样；在 w_vᵀ tanh(W_q q + W_k k) 中，tanh 作用在两者之和上。")
    if float(np.abs(mine).max()) < 1 and float(np.abs(want).max()) > 1.5:
        return ("all your scores lie between −1 and 1, the range of a tanh, while the right ones do not: "
                "w_v weights the tanh features after the tanh.",
                "你的分数全部落在 −1 到 1 之间（tanh 的值域），而正确的分数并非如此：w_v 应在 tanh 之后对特征加权。")
    return None


def _table_finding(mine: np.ndarray, want: np.ndarray, case: TestCase, i: int) -> tuple[str, str] | None:
    """A sinusoidal table (max_len, d_model) read column by column: which columns differ, and
    the one frequency rule, phase or first position that reproduces every column (told as a
    property of the learner's own table; nothing is said when no rule, or several, fit)."""
    args = case.steps[i].args
    if mine.ndim != 2 or len(args) < 2 or not all(isinstance(a, int) for a in args[:2]):
        return None
    L, d = mine.shape
    if (L, d) != tuple(args[:2]) or d < 2 or d % 2 or L < 3:
        return None
    bad = ~np.isclose(mine, want, rtol=1e-4, atol=1e-5).all(axis=0)  # per column
    if not bad.any():
        return None
    even, odd = bad[0::2], bad[1::2]
    p = np.arange(L, dtype=np.float64)[:, None]
    pair = np.arange(d) // 2  # column j belongs to pair i = j // 2
    col = np.arange(d)
    rules = {  # what the learner's table may be: (English, Chinese) → table
        ("every column pair has frequency 1, where pair i should have 1 / 10000^(2i / d_model): the "
         "exponent comes out 0 (as 2i // d_model does)", "每一对列的频率都是 1，而第 i 对应为 1 / 10000^(2i / d_model)：指数算成了 0（2i // d_model 就是这样）"):
            (np.ones(d), 0.0),
        ("each column has its own frequency 1 / 10000^(j / d_model); a sine and its cosine share one, "
         "1 / 10000^(2i / d_model)", "每一列都用了自己的频率 1 / 10000^(j / d_model)；一对正弦和余弦应共用 1 / 10000^(2i / d_model)"):
            (10000.0 ** (-col / d), 0.0),
        ("the frequencies grow with the column, 10000^(2i / d_model), instead of falling: the position "
         "is multiplied by the power, not divided by it", "频率随列增大（10000^(2i / d_model)）而不是减小：位置乘以了这个幂，而不是除以它"):
            (10000.0 ** (2 * pair / d), 0.0),
        ("the frequencies are e^(−4·2i / d_model), as if ln 10000 were replaced by log10 10000 = 4",
         "频率是 e^(−4·2i / d_model)，相当于把 ln 10000 换成了 log10 10000 = 4"):
            (np.exp(-4.0 * 2 * pair / d), 0.0),
        ("the exponent of pair i is i / d_model where it is 2i / d_model (column 2i's own index over "
         "d_model), so the frequencies fall half as fast", "第 i 对的指数是 i / d_model，而应为 2i / d_model（第 2i 列自己的下标除以 d_model），所以频率下降得慢了一半"):
            (10000.0 ** (-pair / d), 0.0),
        ("the positions start at 1: row 0 should be sin(0) = 0 and cos(0) = 1",
         "位置从 1 开始：第 0 行应为 sin(0) = 0 和 cos(0) = 1"):
            (10000.0 ** (-2 * pair / d), 1.0),
    }
    for (en, zh), (freq, shift) in rules.items():
        x = (p + shift) * freq[None, :]
        table = np.where(col % 2 == 0, np.sin(x), np.cos(x))
        if np.allclose(mine, table, rtol=1e-4, atol=1e-5):
            return (f"read column by column, {en}.", f"逐列来看：{zh}。")
    x = p * 10000.0 ** (-2 * pair / d)[None, :]
    if np.allclose(mine[:, 0::2], np.cos(x[:, 0::2]), atol=1e-5) and np.allclose(mine[:, 1::2], np.sin(x[:, 1::2]), atol=1e-5):
        return ("read column by column, the even columns hold the cosines and the odd ones the sines: "
                "column 2i is sin, column 2i + 1 is cos.",
                "逐列来看：偶数列是余弦、奇数列是正弦；第 2i 列应为 sin，第 2i + 1 列应为 cos。")
    found = _pair_frequencies(mine, p, d)
    if found:
        return found
    top = float(np.abs(mine - want).max())
    if odd.any() and not even.any():
        return (f"the sine columns (0, 2, 4, …) are right; only the cosine columns (1, 3, 5, …) differ, "
                f"by at most {top:.2g}: look at how the cosines are computed.",
                f"正弦列（0, 2, 4, …）正确；只有余弦列（1, 3, 5, …）不同，最多相差 {top:.2g}：请检查余弦的计算。")
    if even.any() and not odd.any():
        return (f"the cosine columns (1, 3, 5, …) are right; only the sine columns (0, 2, 4, …) differ, "
                f"by at most {top:.2g}: look at how the sines are computed.",
                f"余弦列（1, 3, 5, …）正确；只有正弦列（0, 2, 4, …）不同，最多相差 {top:.2g}：请检查正弦的计算。")
    return None


def _pair_frequencies(mine: np.ndarray, p: np.ndarray, d: int) -> tuple[str, str] | None:
    """A table whose every pair (2i, 2i + 1) is sin/cos of one frequency, read off row 1, with
    some frequencies other than 1 / 10000^(2i / d_model): the frequencies are told (they follow
    from the public formula and the case's public sizes)."""
    f = np.arctan2(mine[1, 0::2], mine[1, 1::2])  # one frequency per pair, in (−π, π]
    x = p * np.repeat(f, 2)[None, :]
    fitted = np.where(np.arange(d) % 2 == 0, np.sin(x), np.cos(x))
    right = 10000.0 ** (-2 * np.arange(d // 2) / d)
    if not np.allclose(mine, fitted, rtol=1e-4, atol=1e-5) or np.allclose(f, right, rtol=1e-3, atol=1e-6):
        return None
    shown = min(3, d // 2)
    mine_s = ", ".join(f"{v:.3g}" for v in f[:shown])
    right_s = ", ".join(f"{v:.3g}" for v in right[:shown])
    which, which_zh = ("pairs 0, 1, …", "第 0、1……对") if d > 2 else ("the one pair", "唯一这一对")
    return (f"read column by column, each pair (2i, 2i + 1) is the sine and cosine of one frequency, but "
            f"the frequencies of {which} are {mine_s}{', …' if d // 2 > shown else ''}, where "
            f"1 / 10000^(2i / d_model) gives {right_s}: look at how the frequency of pair i is computed.",
            f"逐列来看：每一对列 (2i, 2i + 1) 是同一个频率的正弦和余弦，但{which_zh}的频率是 {mine_s}"
            f"{'……' if d // 2 > shown else ''}，而 1 / 10000^(2i / d_model) 给出的是 {right_s}：请检查第 i 对的频率是怎样算的。")


def _added_table_finding(label: str, mine: np.ndarray, want: np.ndarray, case: TestCase,
                         i: int) -> tuple[str, str] | None:
    """X (B, T, d) * √d + P[:T], split in its two parts: which part differs, and a table indexed
    by the batch row instead of the time step."""
    args = case.steps[i].args
    x = np.asarray(args[0], dtype=np.float64) if args and hasattr(args[0], "shape") else None
    if x is None or x.ndim != 3 or x.shape != mine.shape:
        return None
    B, T, d = x.shape
    mine_p, right_p = mine - np.sqrt(d) * x, want - np.sqrt(d) * x  # the tables added
    table = right_p[0]  # (T, d): the same for every batch row
    tol = dict(rtol=1e-4, atol=1e-5)
    if B > 1 and T > 1 and np.allclose(mine_p, table[None, :, :], **tol):
        return None  # the table is right: what differs is X's part (a mistake file says which)
    by_batch = np.broadcast_to(_sinusoids(B, d)[:, None, :], (B, T, d))  # row b for batch row b
    if np.allclose(mine_p, by_batch, **tol):
        return (f"`{label}` minus X·√d_model is the same for every time step of a batch row: batch row b "
                "gets row b of the table at every position. The table's row t belongs to time step t "
                "(axis 1 of X), the same for every batch row.",
                f"`{label}` 减去 X·√d_model 后，在同一批次行的每个时间步都相同：第 b 个批次行的每个位置都加上了编码表的"
                "第 b 行。编码表的第 t 行属于时间步 t（X 的第 1 维），对每个批次行都一样。")
    return None


def _sinusoids(rows: int, d: int) -> np.ndarray:
    """The statement's table (rows, d): sin in column 2i, cos in 2i + 1, frequency 10000^(−2i/d)."""
    x = np.arange(rows, dtype=np.float64)[:, None] * 10000.0 ** (-2 * (np.arange(d) // 2) / d)[None, :]
    return np.where(np.arange(d) % 2 == 0, np.sin(x), np.cos(x))


def _size_factor(c: float, case: TestCase | None) -> str:
    """"1/n" or "n" when the factor is one over (or one of) the lengths of the case's inputs, a
    sum divided by its count or a mean multiplied back (only when exactly one length fits)."""
    if case is None:
        return ""
    from grader.judge import input_sizes

    fits = {f"1/{n}" for n in input_sizes(case) if n > 1 and abs(c * n - 1) < 1e-3}
    fits |= {f"{n}" for n in input_sizes(case) if n > 1 and abs(c / n - 1) < 1e-3}
    return next(iter(fits)) if len(fits) == 1 else ""


def values_finding(label: str, mine: np.ndarray, want: np.ndarray, case: TestCase | None = None,
                    i: int = 0, exercise: str | None = None) -> tuple[str, str] | None:
    if exercise in ("positional-table", "permutation-invariance") and case is not None:
        found = _table_finding(mine, want, case, i) or _added_table_finding(label, mine, want, case, i)
        if found:
            return found
    if "score" in label:
        found = _scores_finding(label, mine, want, exercise)
        if found:
            return found
    flat_w, flat_m = want.reshape(-1), mine.reshape(-1)
    big = np.abs(flat_w) > 1e-6
    if big.sum() >= 2:
        ratio = flat_m[big] / flat_w[big]
        c = float(np.median(ratio))
        if abs(c - 1) > 1e-3 and np.allclose(flat_m, c * flat_w, rtol=1e-4, atol=1e-6):
            size = _size_factor(c, case)
            n = size.split("/")[-1]
            if size:
                return (f"every entry is about {c:.3g} = {size} times the right one ({n} is a length "
                        "of this test's inputs).",
                        f"每个元素都约为正确值的 {c:.3g} = {size} 倍（{n} 是本测试输入的一个长度）。")
            return (f"every entry is about {c:.3g} times the right one.",
                    f"每个元素都约为正确值的 {c:.3g} 倍。")
    if mine.ndim >= 1 and mine.shape[-1] > 1:
        order = _column_order(mine, want)
        if order is not None:
            n = len(order)
            rev = order == list(range(n - 1, -1, -1))
            return (f"it holds the right columns in another order{' (reversed)' if rev else ''}: "
                    "look at how the pieces are put side by side (for heads: head 0 first, features "
                    "of one head together).",
                    f"它包含正确的列，但顺序不对{'（顺序颠倒）' if rev else ''}：请检查拼接的顺序"
                    "（多头时：第 0 个头在前，同一个头的特征放在一起）。")
    return None


def _column_order(mine: np.ndarray, want: np.ndarray) -> list[int] | None:
    """The permutation of the last axis that turns ``want`` into ``mine`` (not the identity)."""
    n = mine.shape[-1]
    cols_m = mine.reshape(-1, n).T
    cols_w = want.reshape(-1, n).T
    order = []
    for c in cols_m:
        hits = [j for j in range(n) if np.allclose(c, cols_w[j], rtol=1e-4, atol=1e-6)]
        if len(hits) != 1:
            return None
        order.append(hits[0])
    return order if sorted(order) == list(range(n)) and order != list(range(n)) else None

