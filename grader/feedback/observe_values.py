"""Stage observations on plain values (no weights): a scores table that splits into a query
part plus a key part or stays inside tanh's range, a sinusoidal table read column by column, a
constant factor, the right columns in another order, a constant output. Used by
grader/feedback/observe.py, which decides the stage; everything here reads only the learner's values
and the reference's, on the trusted side, and says a property of the learner's own values.
"""

from __future__ import annotations

import numpy as np

from grader.feedback.premises import UNKNOWN, Premises
from grader.typed import TestCase
from grader.words import NOTHING, Finding, say


def mixed(s: np.ndarray) -> float:
    """max |s[i, j] − s[i, 0] − s[0, j] + s[0, 0]|: 0 when s is a row part plus a column part."""
    return float(np.abs(s - s[..., :, :1] - s[..., :1, :] + s[..., :1, :1]).max())


def constant_finding(label: str, mine: np.ndarray, want: np.ndarray,
                     premises: Premises = UNKNOWN) -> Finding | None:
    """Every entry the same number while the right values are not all equal (the starter's
    placeholder named only while a placeholder line of the starter is still in the code)."""
    if mine.size < 2 or not np.isfinite(mine).all() or np.ptp(mine) > 1e-12 \
            or np.ptp(np.nan_to_num(want)) < 1e-9:
        return None
    c = f"{float(mine.reshape(-1)[0]):.4g}".replace("-", "−")
    return Finding("constant.placeholder" if premises.keeps_placeholder else "constant.plain",
                   {"label": label, "c": c})


def rounded_finding(label: str, mine: np.ndarray, want: np.ndarray) -> Finding | None:
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
            return Finding("rounded_1" if d == 1 else "rounded",
                           {"label": label, "half": f"{step / 2:g}", "d": d})
    return None


def transposed_finding(label: str, mine: np.ndarray, want: np.ndarray,
                       weights: bool) -> Finding | None:
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
        return Finding("transposed.weights", {"label": label})
    if not np.allclose(mine, flip, rtol=1e-4, atol=1e-6):
        return None
    return Finding("transposed.scores", {"label": label})


def nan_finding(label: str, mine: np.ndarray, want: np.ndarray, hidden: np.ndarray | None,
                premises: Premises = UNKNOWN,
                scores: np.ndarray | None = None) -> Finding | None:
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
            rest = say("nan.head_rest_right") if rest_right else NOTHING
            head = Finding("nan.head_1" if k == 1 else "nan.head", {"label": label, "k": k, "rest": rest})
            if premises.calls_softmax and not premises.writes_large_fill:
                # softmax of finite scores is finite: the keys were hidden after it
                return Finding("nan.after_softmax", {"head": head, "uniform": say(
                    "nan.after_softmax_uniform") if uniform else NOTHING})
            extra = NOTHING
            if uniform and premises.calls_softmax:
                extra = say("nan.uniform_finite_fill")
            elif uniform:
                extra = say("nan.uniform_max_first")
            return Finding("nan.all_hidden", {"head": head, "extra": extra})
        if (bad & empty).any():
            return None
    where = NOTHING if hidden is None or not hidden.any() else say("nan.where_visible")
    said = Finding("nan.said", {"label": label, "k": k, "total": total, "where": where,
                                "rest": say("nan.rest_right") if rest_right else NOTHING})
    if premises.calls_softmax and premises.writes_minus_inf and hidden is not None:
        # softmax of a row that is all −inf is NaN: the mask hides every key of rows that see some
        return Finding("nan.mask_hides_all", {"said": said})
    if premises.calls_softmax:  # a library softmax of finite scores is finite: a step around it
        return Finding("nan.around_softmax", {"said": said})
    flow = _exp_flow(scores, bad, hidden)
    if flow == "under":
        return Finding("nan.underflow", {"said": said})
    if flow == "over":
        return Finding("nan.overflow", {"said": said})
    return Finding("nan.normalised", {"said": said})


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
                    exercise: str | None) -> Finding | None:
    """Additive scores (…, n, m) that split into a query part plus a key part, or stay inside
    (−1, 1); for any exercise, scores that are the transpose of the right ones."""
    if mine.ndim < 2 or mine.shape[-1] < 2 or mine.shape[-2] < 2:
        return None
    if exercise != "additive-attention":
        return transposed_finding(label, mine, want, weights=False)
    size = max(1.0, float(np.abs(want).max()))
    if mixed(mine) < 1e-6 * size and mixed(want) > 1e-3 * size:
        return Finding("scores.additive_split")
    if float(np.abs(mine).max()) < 1 and float(np.abs(want).max()) > 1.5:
        return Finding("scores.tanh_range")
    return None


def _table_finding(mine: np.ndarray, want: np.ndarray, case: TestCase, i: int) -> Finding | None:
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
    rules = {  # what the learner's table may be: its finding's key → (frequencies, first position)
        "table.freq_one": (np.ones(d), 0.0),
        "table.freq_per_column": (10000.0 ** (-col / d), 0.0),
        "table.freq_two_j": (10000.0 ** (-2 * col / d), 0.0),
        "table.freq_grow": (10000.0 ** (2 * pair / d), 0.0),
        "table.freq_log10": (np.exp(-4.0 * 2 * pair / d), 0.0),
        "table.freq_half": (10000.0 ** (-pair / d), 0.0),
        "table.start_at_1": (10000.0 ** (-2 * pair / d), 1.0),
    }
    for rule, (freq, shift) in rules.items():
        x = (p + shift) * freq[None, :]
        table = np.where(col % 2 == 0, np.sin(x), np.cos(x))
        if np.allclose(mine, table, rtol=1e-4, atol=1e-5):
            return Finding("table.read", {"rule": say(rule)})
    x = p * 10000.0 ** (-2 * pair / d)[None, :]
    if np.allclose(mine[:, 0::2], np.cos(x[:, 0::2]), atol=1e-5) and np.allclose(mine[:, 1::2], np.sin(x[:, 1::2]), atol=1e-5):
        return Finding("table.cos_sin_swapped")
    found = _pair_frequencies(mine, p, d)
    if found:
        return found
    top = float(np.abs(mine - want).max())
    if d < 4:  # one column of each kind: "the sines are right" would generalise from one
        return None  # (blind set 5: a per-column exponent read as "look at the cosines")
    if odd.any() and not even.any():
        return Finding("table.sines_right", {"top": top})
    if even.any() and not odd.any():
        return Finding("table.cosines_right", {"top": top})
    return None


def _pair_frequencies(mine: np.ndarray, p: np.ndarray, d: int) -> Finding | None:
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
    return Finding("table.pairs", {
        "which": say("table.which_pairs" if d > 2 else "table.which_one"), "mine": mine_s,
        "more": say("table.more") if d // 2 > shown else NOTHING, "right": right_s})


def _added_table_finding(label: str, mine: np.ndarray, want: np.ndarray, case: TestCase,
                         i: int) -> Finding | None:
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
        return Finding("table.by_batch", {"label": label})
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
    from grader.feedback.judge import input_sizes

    fits = {f"1/{n}" for n in input_sizes(case) if n > 1 and abs(c * n - 1) < 1e-3}
    fits |= {f"{n}" for n in input_sizes(case) if n > 1 and abs(c / n - 1) < 1e-3}
    return next(iter(fits)) if len(fits) == 1 else ""


def values_finding(label: str, mine: np.ndarray, want: np.ndarray, case: TestCase | None = None,
                    i: int = 0, exercise: str | None = None) -> Finding | None:
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
                return Finding("values.factor_size", {"c": c, "size": size, "n": n})
            return Finding("values.factor", {"c": c})
    if mine.ndim >= 1 and mine.shape[-1] > 1:
        order = _column_order(mine, want)
        if order is not None:
            n = len(order)
            rev = order == list(range(n - 1, -1, -1))
            return Finding("values.column_order", {"rev": say("values.reversed") if rev else NOTHING})
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

