"""Stage observations: what differs at the first output of a failed case, in the learner's terms.

Where no single hypothesis explains a part's failures (grader/explain.py names nothing), the
feedback says what was observed instead, which is never wrong: the stage where the learner's
values first part from the reference's (the first checked output that fails, after the ones
that passed) and the property that breaks there: rows that do not sum to 1 and along which
axis, hidden keys that get weight, a hidden set that is the transpose or a shifted copy of the
right one, a scale that fits, heads that all agree, columns in another order, two identical
calls that disagree. Everything is computed here, on the trusted side, from the values the
sandbox returned and the reference's; numbers are told only as coarse figures of the
learner's own values (row sums, a factor), never hidden inputs or expected values.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

from grader import compare
from grader.diagnose import TINY, arr
from grader.judge import check_record, expected_of
from grader.model import Check, Record, TestCase
from grader.report import bilingual as _m


def observe(cases: list[TestCase], failed: list, expected: dict[int, list[Record]]) -> None:
    """Replace the generic message of each failed, unnamed case by a stage observation."""
    for index, result, records in failed:
        if result.mistake:
            continue
        try:
            found = locate(cases[index], records, expected.get(index))
        except Exception:  # noqa: BLE001 - an observation is optional; the generic text stays
            found = None
        if found is not None:
            result.message = found


def locate(case: TestCase, got: list[Record], expected: list[Record] | None) -> dict | None:
    """The observation at the first failing check of ``case``, or None (keep the generic text)."""
    if expected is None:
        return None
    right: list[str] = []
    for i, step in enumerate(case.steps):
        for chk in step.checks:
            if i >= len(got) or got[i].error is not None:
                return None  # a crash says its own thing (grader/feedback.py)
            ref = expected[i] if i < len(expected) else None
            problem = check_record(chk, got[i], expected_of(chk, ref), case.labels[i], hidden=True)
            if problem is None:
                right.append(chk.label or case.labels[i])
                continue
            label = chk.label or case.labels[i]
            twin = _twin_call(case, got, i)
            if twin is not None:
                return _m(f"Two identical calls of `{case.labels[i]}` (same inputs, same weights) "
                          "returned different values: something random runs inside it (dropout "
                          "left on, `torch.rand…`), so its result cannot be checked.",
                          f"两次完全相同的 `{case.labels[i]}` 调用（输入和权重都相同）返回了不同的值：其中有随机的"
                          "计算（没有关掉的 dropout、`torch.rand…`），结果无法检查。")
            if step.op == "describe":
                return _contract(got[i].value, ref.value if ref is not None else None)
            if chk.kind != "allclose":
                return None
            mine = _selected(got[i].value, chk)
            want = _selected(ref.value if ref is not None else None, chk)
            if mine is None or want is None or mine.shape != want.shape or want.size == 0:
                return None
            finding = _finding(label, mine, want, case, i)
            if finding is None:  # nothing more to say than compare.py's text, at its stage
                if not right or "en" not in problem or "zh" not in problem:
                    return None
                finding = (problem["en"], problem["zh"])
            en, zh = finding
            if right:
                done = "、".join(f"`{r}`" for r in dict.fromkeys(right))
                en = f"{', '.join(f'`{r}`' for r in dict.fromkeys(right))} right, `{label}` not: {en}"
                zh = f"{done}正确，`{label}` 不正确：{zh}"
            else:
                en, zh = f"The first output that differs is `{label}`: {en}", f"第一个出错的输出是 `{label}`：{zh}"
            return _m(en, zh)
    return None


_LINEAR = re.compile(r"Linear\((\d+), (\d+), bias=(True|False)\)")


def _contract(got: Any, want: Any) -> dict | None:
    """One message naming the contract for a module's submodules: which are missing, of
    another type or size, or built without the bias the statement fixes. Only the contract's
    own names and descriptions are echoed (the learner's descriptions are matched, not shown)."""
    if not isinstance(want, dict) or not isinstance(got, dict):
        return None
    en, zh = [], []
    for name, spec in want.items():
        mine = got.get(name)
        if mine == spec:
            continue
        fixed = _LINEAR.fullmatch(str(spec))
        found = _LINEAR.fullmatch(mine) if isinstance(mine, str) else None
        layer = f"nn.Linear({fixed.group(1)}, {fixed.group(2)})" if fixed else str(spec)
        if mine == "missing":
            en.append(f"`{name}` is missing (the tests load its weights by that name)")
            zh.append(f"缺少 `{name}`（测试按这个名字加载权重）")
        elif fixed and found and found.groups()[:2] == fixed.groups()[:2] and found.group(3) != fixed.group(3):
            en.append(f"`{name}`: the statement fixes `bias={fixed.group(3)}`: `{layer}`")
            zh.append(f"`{name}`：题目规定 `bias={fixed.group(3)}`：`{layer}`")
        else:
            en.append(f"`{name}` should be `{layer}`")
            zh.append(f"`{name}` 应为 `{layer}`")
    if not en:
        return None
    return _m("The submodules differ from the contract: " + "; ".join(en) + ". This is charged "
              "once, here; the value tests load the contract's weights wherever they can.",
              "子模块与约定不一致：" + "；".join(zh) + "。这一点只在此处扣分；其余数值测试会尽可能加载约定的权重。")


def _selected(value: Any, chk: Check) -> np.ndarray | None:
    picked, problem = compare.select(value, chk.select, "x", True)
    return None if problem else arr(picked)


def _twin_call(case: TestCase, got: list[Record], i: int) -> bool | None:
    """True when an earlier or later step calls the same thing on the same inputs and the two
    returned values differ (the learner's own values only)."""
    step = case.steps[i]
    if step.op != "call":
        return None
    for j, other in enumerate(case.steps):
        if j == i or other.op != "call" or other.name != step.name or j >= len(got):
            continue
        if not (_same_inputs(other.args, step.args) and _same_inputs(other.kwargs, step.kwargs)):
            continue
        a, b = arr(_first(got[i].value)), arr(_first(got[j].value))
        if a is not None and b is not None and a.shape == b.shape and not np.allclose(
                a, b, rtol=1e-9, atol=1e-12, equal_nan=True):
            return True
    return None


def _first(value: Any) -> Any:
    return value[0] if isinstance(value, (tuple, list)) and value else value


def _same_inputs(a: Any, b: Any) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same_inputs(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same_inputs(x, y) for x, y in zip(a, b, strict=True))
    if hasattr(a, "shape") and hasattr(b, "shape"):
        return a.shape == b.shape and bool(np.array_equal(np.asarray(a), np.asarray(b)))
    return type(a) is type(b) and a == b


def _span(values: np.ndarray) -> str:
    lo, hi = float(np.nanmin(values)), float(np.nanmax(values))
    return f"{lo:.2f}" if abs(hi - lo) < 0.005 else f"{lo:.2f}–{hi:.2f}"


def _is_weights(want: np.ndarray) -> bool:
    return want.ndim >= 2 and bool(np.all(np.nan_to_num(want, nan=0.0) >= -1e-12)) and bool(
        np.all(np.abs(np.nan_to_num(want, nan=1.0).sum(axis=-1) - 1) < 1e-5))


def _finding(label: str, mine: np.ndarray, want: np.ndarray, case: TestCase, i: int) -> tuple[str, str] | None:
    if not np.isfinite(mine).all() and np.isfinite(want).all():
        return None  # compare.py's NaN/inf message already says what breaks
    if _is_weights(want):
        return _weights_finding(label, mine, want, case, i)
    return _values_finding(label, mine, want)


def _weights_finding(label: str, mine: np.ndarray, want: np.ndarray, case: TestCase, i: int) -> tuple[str, str] | None:
    rows = mine.sum(axis=-1)
    if not np.all(np.abs(rows - 1) < 1e-4):
        if mine.shape[-2] > 1 and np.all(np.abs(mine.sum(axis=-2) - 1) < 1e-4):
            return (f"each row of `{label}` should sum to 1 over the keys (the last axis); yours sum "
                    "to 1 down each column, over the queries: the softmax runs over the wrong axis.",
                    f"`{label}` 的每一行应在键（最后一维）上求和为 1；你的结果是每一列（在查询上）求和为 1："
                    "softmax 的维度不对。")
        return (f"each row of `{label}` should sum to 1 over the keys; yours sum to {_span(rows)}. "
                "Look at what happens after the softmax (a scale, a mask or a sum applied to the weights).",
                f"`{label}` 的每一行应在键上求和为 1；你的结果每行之和为 {_span(rows)}。请检查 softmax 之后的计算"
                "（对权重做的缩放、掩码或求和）。")
    uniform = (want.max(axis=-1) - want.min(axis=-1)) < 1e-9
    wrong_rows = ~np.isclose(mine, want, rtol=1e-4, atol=1e-6).all(axis=-1)
    if uniform.any() and wrong_rows.any() and not (wrong_rows & ~uniform).any():
        return ("it is right except in the rows that should be uniform (1/m for every key: a query "
                "that sees no key, whose scores are all the same fill); yours are not uniform there. "
                "Fill the hidden scores with one value (replace them), do not add to them.",
                "除了本应均匀的行（每个键 1/m：看不到任何键的查询，它的分数全是同一个填充值）之外都正确；你的结果在这些行"
                "并不均匀。请把被遮蔽的分数替换成同一个值，而不是在原分数上相加。")
    hidden, shown = want <= TINY, mine > TINY
    if (hidden & shown).any():
        what = _hidden_pattern(mine, want)
        return (f"the rows sum to 1, but {int((hidden & shown).sum())} weights that should be 0 are not "
                f"(keys the mask hides, or keys whose scores lie far below the row's best){what[0]}. "
                "A hidden key is hidden in the scores, before the softmax, with a large negative fill.",
                f"每行之和为 1，但有 {int((hidden & shown).sum())} 个本应为 0 的权重不为 0（被掩码遮蔽的键，或分数远低于"
                f"该行最高分的键）{what[1]}。被遮蔽的键应在 softmax 之前、在分数中用很大的负数填充。")
    if (~shown & (want > 1e-3)).any():
        what = _hidden_pattern(mine, want)
        return (f"the rows sum to 1, but some weights that should be clearly above 0 are 0 (keys that "
                f"should be visible){what[0]}.",
                f"每行之和为 1，但一些本应明显大于 0 的权重为 0（本应可见的键）{what[1]}。")
    heads = _same_heads(mine, want, case)
    if heads:
        return heads
    return _scale_finding(mine, want, case, i)


def _hidden_pattern(mine: np.ndarray, want: np.ndarray) -> tuple[str, str]:
    """Whether the learner's hidden set is the transpose or a shifted copy of the right one."""
    got, right = mine > TINY, want > TINY
    if got.shape[-1] == got.shape[-2] and np.array_equal(got, np.swapaxes(right, -1, -2)):
        return (": the keys that get weight are the transpose of the right ones (queries and keys "
                "swapped in the mask)", "：得到权重的位置恰好是正确位置的转置（掩码中查询和键互换了）")
    for shift in (1, -1):
        moved = np.roll(right, shift, axis=-1)
        edge = (..., 0) if shift == 1 else (..., -1)
        moved[edge] = right[edge]
        if np.array_equal(got, moved):
            return (f": the keys that get weight are the right ones shifted by {shift:+d} along the keys",
                    f"：得到权重的键是正确的键沿键方向移动了 {shift:+d} 位")
    return "", ""


def _same_heads(mine: np.ndarray, want: np.ndarray, case: TestCase) -> tuple[str, str] | None:
    """(B, h, n, m) weights whose heads all agree where the right ones differ."""
    if mine.ndim != 4 or mine.shape[1] < 2 or case.steps[0].op != "new":
        return None
    if np.allclose(mine, mine[:, :1], atol=1e-6) and not np.allclose(want, want[:, :1], atol=1e-6):
        return ("every head has the same weights: each head must use its own slice of the projections "
                "(head i: features i·d_k … (i+1)·d_k − 1).",
                "每个头的权重都一样：每个头应使用投影结果中属于自己的那一段（第 i 个头：特征 i·d_k … (i+1)·d_k − 1）。")
    return None


def _scale_finding(mine: np.ndarray, want: np.ndarray, case: TestCase, i: int) -> tuple[str, str] | None:
    """The weights are a softmax of r times the right scores: say r, and which scale it means."""
    ok = (mine > 1e-12) & (want > 1e-12)
    if ok.sum() < 4:
        return None
    lg, le = np.where(ok, np.log(np.where(ok, mine, 1.0)), 0.0), np.where(ok, np.log(np.where(ok, want, 1.0)), 0.0)
    count = ok.sum(axis=-1, keepdims=True).clip(min=1)
    lg_c = np.where(ok, lg - lg.sum(axis=-1, keepdims=True) / count, 0.0)
    le_c = np.where(ok, le - le.sum(axis=-1, keepdims=True) / count, 0.0)
    denom = float((le_c * le_c).sum())
    if denom < 1e-12:
        return None
    r = float((lg_c * le_c).sum()) / denom
    if abs(r - 1) < 1e-3 or float(np.abs(lg_c - r * le_c).max()) > 1e-3 * max(1.0, float(np.abs(lg_c).max())):
        return None  # not a change of scale: the scores themselves differ
    which = _scale_name(r, case, i)
    return (f"the rows sum to 1 and the right keys get weight, but your weights are those of the right "
            f"scores multiplied by about {r:.3g}{which[0]}: look at how the scores are scaled.",
            f"每行之和为 1，正确的键也得到了权重，但你的权重相当于把正确的分数乘以约 {r:.3g}{which[1]}：请检查分数的缩放。")


def _scale_name(r: float, case: TestCase, i: int) -> tuple[str, str]:
    """Which divisor the learner's scores fit, among the sizes this case has (d_k, d_v, E)."""
    sizes = _sizes(case, i)
    if "d_k" not in sizes:
        return "", ""
    divisor = math.sqrt(sizes["d_k"]) / r  # the learner divides Q·Kᵀ by this
    names = {"1 (no scaling)": 1.0, "d_k": float(sizes["d_k"])}
    for name in ("d_v", "E"):
        if name in sizes:
            names[f"√{name}"] = math.sqrt(sizes[name])
    hits = [n for n, v in names.items() if abs(divisor - v) < 1e-3 * v]
    also = f" = {' = '.join(hits)} here" if hits else ""
    root = math.sqrt(sizes["d_k"])
    return (f" (as if Q·Kᵀ were divided by {divisor:.3g}{also}, instead of √d_k = {root:.3g})",
            f"（相当于 Q·Kᵀ 除以了 {divisor:.3g}{'，此处即 ' + ' = '.join(hits) if hits else ''}，而不是 √d_k = {root:.3g}）")


def _sizes(case: TestCase, i: int) -> dict[str, int]:
    """d_k, d_v and E of the call at step ``i``: from the module's (E, h) or Q, K, V's shapes."""
    first = case.steps[0]
    if first.op == "new" and len(first.args) >= 2 and all(isinstance(a, int) for a in first.args[:2]):
        E, h = first.args[:2]
        return {"E": E, "d_k": E // h, "d_v": E // h} if h and E % h == 0 else {}
    args = case.steps[i].args
    shapes = [getattr(a, "shape", None) for a in args[:3]]
    if len(shapes) == 3 and all(s is not None and len(s) >= 1 for s in shapes):
        return {"d_k": int(shapes[0][-1]), "d_v": int(shapes[2][-1])}
    return {}


def _scores_finding(mine: np.ndarray, want: np.ndarray) -> tuple[str, str] | None:
    """Scores (…, n, m) that split into a query part plus a key part, or stay inside (−1, 1)."""
    if mine.ndim < 2 or mine.shape[-1] < 2 or mine.shape[-2] < 2:
        return None

    def mixed(s: np.ndarray) -> float:  # s[i, j] − s[i, 0] − s[0, j] + s[0, 0]
        return float(np.abs(s - s[..., :, :1] - s[..., :1, :] + s[..., :1, :1]).max())

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


def _values_finding(label: str, mine: np.ndarray, want: np.ndarray) -> tuple[str, str] | None:
    if "score" in label:
        found = _scores_finding(mine, want)
        if found:
            return found
    flat_w, flat_m = want.reshape(-1), mine.reshape(-1)
    big = np.abs(flat_w) > 1e-6
    if big.sum() >= 2:
        ratio = flat_m[big] / flat_w[big]
        c = float(np.median(ratio))
        if abs(c - 1) > 1e-3 and np.allclose(flat_m, c * flat_w, rtol=1e-4, atol=1e-6):
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

