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
from grader.diagnose import TINY, arr, constant_fill
from grader.judge import check_record, expected_of
from grader.model import Check, Record, TestCase
from grader.observe_values import (
    constant_finding,
    nan_finding,
    rounded_finding,
    transposed_finding,
    values_finding,
)
from grader.premises import UNKNOWN, Premises
from grader.report import bilingual as _m

# Exercises whose scores are a scaled dot product Q·Kᵀ / √d_k (the scale wording names d_k).
DOT_PRODUCT = frozenset({"manual-attention", "causal-mask", "multi-head-attention"})


def observe(cases: list[TestCase], failed: list, expected: dict[int, list[Record]],
            exercise: str | None = None, premises: Premises | None = None) -> None:
    """Replace the generic message of each failed, unnamed case by a stage observation.
    ``exercise`` (the id) decides which words fit: a scale of Q·Kᵀ only where scores are a
    dot product, a mask only where the case's inputs hide keys; ``premises`` (what the code
    itself already does, grader/premises.py) keep advice from telling it to do that."""
    for index, result, records in failed:
        if result.mistake:
            continue
        try:
            found = locate(cases[index], records, expected.get(index), exercise, premises)
        except Exception:  # noqa: BLE001 - an observation is optional; the generic text stays
            found = None
        if found is not None:
            result.differs_at = found.pop("differs_at", None)
            result.message = found


def locate(case: TestCase, got: list[Record], expected: list[Record] | None,
           exercise: str | None = None, premises: Premises | None = None) -> dict | None:
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
                if chk.kind != "dtype" and step.op != "fixture":  # a right value, not only a right type
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
            finding = _finding(label, mine, want, case, i, exercise,
                               (premises or UNKNOWN).within(step.name))
            if finding is None:  # nothing more to say than compare.py's text, at its stage
                if not right or "en" not in problem or "zh" not in problem:
                    return None
                finding = (problem["en"], problem["zh"])
            en, zh = finding
            if right:
                done = "、".join(f"`{r}`" for r in dict.fromkeys(right))
                en = f"{', '.join(f'`{r}`' for r in dict.fromkeys(right))} right, `{label}` not: {en}"
                zh = f"{done} 正确，`{label}` 不正确：{zh}"
            else:
                en, zh = f"The first output that differs is `{label}`: {en}", f"第一个出错的输出是 `{label}`：{zh}"
            return {**_m(en, zh), "differs_at": label}
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


def _finding(label: str, mine: np.ndarray, want: np.ndarray, case: TestCase, i: int,
             exercise: str | None = None, premises: Premises = UNKNOWN) -> tuple[str, str] | None:
    constant = constant_finding(label, mine, want, premises)
    if constant:
        return constant
    rounded = rounded_finding(label, mine, want)
    if rounded:
        return rounded
    if not np.isfinite(mine).all() and np.isfinite(want).all():  # weights: where, against the mask
        if not _is_weights(want):
            return None  # compare.py's text, and the case's own hint, stay
        return nan_finding(label, mine, want, _hidden_keys(case, i, mine.shape, exercise), premises,
                           _input_scores(case, i, mine.shape))
    if _is_weights(want):
        return _weights_finding(label, mine, want, case, i, exercise, premises)
    return values_finding(label, mine, want, case, i, exercise)


def _weights_finding(label: str, mine: np.ndarray, want: np.ndarray, case: TestCase, i: int,
                     exercise: str | None = None, premises: Premises = UNKNOWN) -> tuple[str, str] | None:
    masked = _hidden_keys(case, i, mine.shape, exercise)
    rows = mine.sum(axis=-1)
    if not np.all(np.abs(rows - 1) < 1e-4):
        if mine.shape[-2] > 1 and np.all(np.abs(mine.sum(axis=-2) - 1) < 1e-4):
            return (f"each row of `{label}` should sum to 1 over the keys (the last axis); yours sum "
                    "to 1 down each column, over the queries: the softmax runs over the wrong axis.",
                    f"`{label}` 的每一行应在键（最后一维）上求和为 1；你的结果是每一列（在查询上）求和为 1："
                    "softmax 的维度不对。")
        return _row_sum_finding(label, mine, want, rows)
    uniform = (want.max(axis=-1) - want.min(axis=-1)) < 1e-9
    wrong_rows = ~np.isclose(mine, want, rtol=1e-4, atol=1e-6).all(axis=-1)
    if uniform.any() and wrong_rows.any() and not (wrong_rows & ~uniform).any():
        return ("it is right except in the rows that should be uniform (1/m for every key: a query "
                "that sees no key, whose scores are all the same fill); yours are not uniform there. "
                "Fill the hidden scores with one value (replace them), do not add to them.",
                "除了本应均匀的行（每个键 1/m：看不到任何键的查询，它的分数全是同一个填充值）之外都正确；你的结果在这些行"
                "并不均匀。请把被遮蔽的分数替换成同一个值，而不是在原分数上相加。")
    hidden, shown = want <= TINY, mine > TINY
    extra = hidden & shown
    if extra.any() and masked is not None:
        found = _masked_keys_finding(mine, want, masked, extra, case, i, exercise, premises)
        if found:
            return found
    if extra.any():
        what = _hidden_pattern(mine, want)
        if what[0]:  # the right number hidden, in the wrong place: where the mask is built
            return (f"the rows sum to 1, but {int(extra.sum())} weights that should be 0 are not"
                    f"{what[0]}: look at how the mask is built (which keys it hides), not at the fill.",
                    f"每行之和为 1，但有 {int(extra.sum())} 个本应为 0 的权重不为 0{what[1]}：请检查掩码是怎样构造的"
                    "（它遮蔽了哪些键），而不是填充值。")
        how = _how_to_hide(premises)
        return (f"the rows sum to 1, but {int(extra.sum())} weights that should be 0 are not "
                f"(keys the mask hides, or keys whose scores lie far below the row's best){what[0]}. "
                f"{how[0]}",
                f"每行之和为 1，但有 {int(extra.sum())} 个本应为 0 的权重不为 0（被掩码遮蔽的键，或分数远低于"
                f"该行最高分的键）{what[1]}。{how[1]}")
    if (~shown & (want > 1e-3)).any():
        what = _hidden_pattern(mine, want)
        if masked is not None and not masked.any():
            return (f"the rows sum to 1, but some weights that should be clearly above 0 are 0{what[0]}: "
                    "the scores differ before the softmax.",
                    f"每行之和为 1，但一些本应明显大于 0 的权重为 0{what[1]}：softmax 之前的分数就已不同。")
        return (f"the rows sum to 1, but some weights that should be clearly above 0 are 0 (keys that "
                f"should be visible){what[0]}.",
                f"每行之和为 1，但一些本应明显大于 0 的权重为 0（本应可见的键）{what[1]}。")
    heads = _same_heads(mine, want, case)
    if heads:
        return heads
    flipped = transposed_finding(label, mine, want, weights=True)
    if flipped:
        return flipped
    return _scale_finding(mine, want, case, i, exercise)


def _row_sum_finding(label: str, mine: np.ndarray, want: np.ndarray,
                     rows: np.ndarray) -> tuple[str, str]:
    """Rows that do not sum to 1, with what the weights still share with the right ones: one
    factor for every weight, or the right proportions per row with the hidden keys at 0."""
    said = (f"each row of `{label}` should sum to 1 over the keys; yours sum to {_span(rows)}",
            f"`{label}` 的每一行应在键上求和为 1；你的结果每行之和为 {_span(rows)}")
    big = want > 1e-6
    ratio = np.where(big, mine / np.where(big, want, 1.0), np.nan)
    if big.any() and np.isfinite(mine).all() and (np.abs(mine[~big]) <= 1e-9).all():
        lo, hi = np.nanmin(ratio, axis=-1), np.nanmax(ratio, axis=-1)
        per_row = np.nan_to_num(hi - lo) <= 1e-4 * np.maximum(np.nan_to_num(np.abs(hi)), 1e-12)
        if per_row.all():
            c = float(np.nanmedian(ratio))
            if np.allclose(ratio[big], c, rtol=1e-4):
                return (f"{said[0]}: every weight is {c:.3g} times the right one, so the weights are "
                        "scaled after they are normalised.",
                        f"{said[1]}：每个权重都是正确值的 {c:.3g} 倍，也就是在归一化之后又被缩放了。")
            if not (~big).any():
                return (f"{said[0]}: in every row the weights have the right proportions, but they are "
                        "divided by something other than the row's own sum.",
                        f"{said[1]}：每一行的权重比例都正确，但除以的不是这一行自己的和。")
            return (f"{said[0]}: in every row the weights have the right proportions, and the keys that "
                    "should get 0 get 0, but the row is not normalised again after them: keys are "
                    "hidden after the softmax instead of in the scores before it.",
                    f"{said[1]}：每一行的权重比例都正确，应为 0 的键也是 0，但之后这一行没有重新归一化：键是在"
                    " softmax 之后才被遮蔽的，而不是在 softmax 之前的分数里。")
    return (f"{said[0]}: look at the step that normalises them.",
            f"{said[1]}：请检查对它们做归一化的那一步。")


def _masked_keys_finding(mine: np.ndarray, want: np.ndarray, masked: np.ndarray, extra: np.ndarray,
                         case: TestCase, i: int, exercise: str | None,
                         premises: Premises = UNKNOWN) -> tuple[str, str] | None:
    """Weights that should be 0 and are not, told apart by what the case's inputs hide: keys
    the mask (valid_lens, a causal mask) hides, or visible keys whose scores lie far below the
    row's best (then the scores differ, and no mask advice applies)."""
    on_mask, off_mask = extra & masked, extra & ~masked
    if off_mask.any() and not on_mask.any():
        scaled = _scale_finding(mine, want, case, i, exercise)
        if scaled:
            return scaled
        if masked.any():
            k = int(off_mask.sum())
            return (f"the rows sum to 1 and no key the mask hides gets weight, but {k} visible "
                    f"key{'s' if k != 1 else ''} whose right weight is about 0 (their scores lie far below "
                    "the row's best) get weight: the scores already differ before the softmax.",
                    f"每行之和为 1，被掩码遮蔽的键也没有得到权重，但有 {int(off_mask.sum())} 个可见键本应权重约为 0"
                    "（它们的分数远低于该行最高分）却得到了权重：softmax 之前的分数就已不同。")
        return (f"the rows sum to 1, but {int(off_mask.sum())} weights whose right value is about 0 (keys "
                "whose scores lie far below the row's best) are not: the scores already differ before "
                "the softmax.",
                f"每行之和为 1，但有 {int(off_mask.sum())} 个本应约为 0 的权重（分数远低于该行最高分的键）不为 0："
                "softmax 之前的分数就已不同。")
    if not on_mask.any() or off_mask.any():
        return None
    visible = ~masked
    if constant_fill(mine, visible):
        return ("the keys the mask hides get weight, and every hidden key of a row gets the same weight: "
                "their scores are filled with 0 or another ordinary number, which the softmax treats like "
                "any score. Fill them with a large negative number (the statement's fill) before the softmax.",
                "被掩码遮蔽的键得到了权重，而且同一行中每个被遮蔽的键权重都相同：它们的分数被填成了 0 或其他普通数值，"
                "softmax 会把它当作普通分数。请在 softmax 之前填入很大的负数（题目规定的填充值）。")
    rows = _query_axis_rows(case, i, mine.shape)
    if rows is not None:
        flat = (mine.max(axis=-1) - mine.min(axis=-1)) <= 1e-6 * np.maximum(mine.max(axis=-1), TINY)
        if (~rows).any() and np.array_equal(flat, ~rows) and rows.any() and (on_mask & rows[..., None]).any():
            return ("the keys valid_lens hides get weight, and the rows of queries i >= valid_lens[b] are "
                    "uniform: the valid lengths are applied to the queries (rows) instead of the keys (the "
                    "last axis). Hide key j of batch row b when j >= valid_lens[b].",
                    "valid_lens 遮蔽的键得到了权重，而第 i >= valid_lens[b] 个查询的整行权重是均匀的：有效长度被用在了查询"
                    "（行）上，而不是键（最后一维）上。应当在 j >= valid_lens[b] 时遮蔽第 b 行的第 j 个键。")
    what = _hidden_pattern(mine, want)
    if what[0]:  # the hidden set is there, in the wrong place: the mask, not the fill
        return (f"the rows sum to 1, but {int(on_mask.sum())} keys the mask hides get weight{what[0]}: "
                "look at how the mask is built (which keys it hides), not at the fill.",
                f"每行之和为 1，但有 {int(on_mask.sum())} 个被掩码遮蔽的键得到了权重{what[1]}：请检查掩码是怎样构造的"
                "（它遮蔽了哪些键），而不是填充值。")
    how = _how_to_hide(premises)
    return (f"the rows sum to 1, but {int(on_mask.sum())} keys the mask hides get weight. {how[0]}",
            f"每行之和为 1，但有 {int(on_mask.sum())} 个被掩码遮蔽的键得到了权重。{how[1]}")


def _how_to_hide(premises: Premises) -> tuple[str, str]:
    """How keys are hidden, for code that writes no large negative fill yet; for code that
    does, where to look instead (which keys its mask picks, and where the fill goes)."""
    if not premises.writes_large_fill:
        return ("A hidden key is hidden in the scores, before the softmax, with a large negative fill.",
                "被遮蔽的键应在 softmax 之前、在分数中用很大的负数填充。")
    return ("Your code writes a large negative fill: check which positions it goes to (the mask's "
            "True/False sense and its axis) and that it is applied to the scores before the softmax.",
            "你的代码写了很大的负填充值：请检查它被填到了哪些位置（掩码 True/False 的含义和它所在的维度），"
            "以及它是否在 softmax 之前作用于分数。")


def _input_scores(case: TestCase, i: int, shape: tuple) -> np.ndarray | None:
    """The scores step ``i`` normalises, when its first input is them (masked_softmax's X)."""
    step = case.steps[i]
    if step.name != "masked_softmax" or not step.args:
        return None
    x = arr(step.args[0])
    return x if x is not None and x.shape == shape else None


def _hidden_keys(case: TestCase, i: int, shape: tuple, exercise: str | None) -> np.ndarray | None:
    """Which keys the inputs of step ``i`` hide, broadcast to the weights' ``shape`` (True =
    hidden): from its ``mask`` (True = may attend) or ``valid_lens``, the causal pattern of
    causal-mask; all False when the call hides nothing; None when it cannot be told."""
    if not exercise or len(shape) < 2:
        return None
    step = case.steps[i]
    kw = step.kwargs or {}
    n, m = shape[-2], shape[-1]
    lens = kw.get("valid_lens")
    if lens is None and step.name == "masked_softmax" and len(step.args) > 1:
        lens = step.args[1]
    if lens is not None:
        lens = arr(lens)
        if lens is None or len(shape) != 3 or lens.ndim not in (1, 2) or lens.shape[0] != shape[0]:
            return None
        if lens.ndim == 2 and lens.shape != shape[:2]:
            return None
        per_query = np.broadcast_to(lens[:, None], shape[:2]) if lens.ndim == 1 else lens
        return np.arange(m)[None, None, :] >= per_query[:, :, None]
    if kw.get("mask") is not None:
        mask = arr(kw["mask"])
        try:
            return ~np.broadcast_to(mask != 0, shape) if mask is not None else None
        except ValueError:
            return None
    if exercise == "causal-mask":
        return np.broadcast_to(np.triu(np.ones((n, m), bool), 1), shape) if step.name == "causal_attention" else None
    return np.zeros(shape, bool)


def _query_axis_rows(case: TestCase, i: int, shape: tuple) -> np.ndarray | None:
    """(B, n): True for the queries i < valid_lens[b] (1-D valid_lens only), None otherwise."""
    lens = (case.steps[i].kwargs or {}).get("valid_lens")
    lens = arr(lens) if lens is not None else None
    if lens is None or lens.ndim != 1 or len(shape) != 3 or lens.shape[0] != shape[0]:
        return None
    return np.arange(shape[1])[None, :] < lens[:, None]


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


def _scale_finding(mine: np.ndarray, want: np.ndarray, case: TestCase, i: int,
                   exercise: str | None = None) -> tuple[str, str] | None:
    """The weights are a softmax of r times the right scores: say r, and which scale it means."""
    ok = (mine > 1e-12) & (want > 1e-12)
    # a row with one or two usable weights fits any factor: only rows of three or more tell
    ok &= ok.sum(axis=-1, keepdims=True) >= 3
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
    if r < 0.02 or abs(r - 1) < 1e-3 or float(np.abs(lg_c - r * le_c).max()) > 1e-3 * max(1.0, float(np.abs(lg_c).max())):
        return None  # not a change of scale: the scores themselves differ
    which = _scale_name(r, case, i, exercise)
    return (f"the rows sum to 1 and the right keys get weight, but your weights are those of the right "
            f"scores multiplied by about {r:.3g}{which[0]}: look at how the scores are scaled.",
            f"每行之和为 1，正确的键也得到了权重，但你的权重相当于把正确的分数乘以约 {r:.3g}{which[1]}：请检查分数的缩放。")


def _scale_name(r: float, case: TestCase, i: int, exercise: str | None = None) -> tuple[str, str]:
    """Which divisor the learner's scores fit, among the sizes this case has (d_k, d_v, E).
    Only scaled dot-product attention has a √d_k; elsewhere the factor is told as it is."""
    if exercise and exercise not in DOT_PRODUCT:
        return _other_scale(r, case, i, exercise)
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


def _other_scale(r: float, case: TestCase, i: int, exercise: str | None) -> tuple[str, str]:
    """The factor in words where scores have no √d_k: additive scores have no scale at all,
    and a kernel's scores change with how w enters it."""
    size = "too large" if r > 1 else "too small"
    size_zh = "偏大" if r > 1 else "偏小"
    if exercise == "additive-attention":
        return (f" ({size}: additive scores w_vᵀ tanh(W_q q + W_k k) are not scaled)",
                f"（{size_zh}：加性注意力的分数 w_vᵀ tanh(W_q q + W_k k) 不做缩放）")
    if exercise == "nadaraya-watson":
        args = case.steps[i].args
        w = float(arr(args[3])) if len(args) > 3 and arr(args[3]) is not None and arr(args[3]).size == 1 else 1.0
        fits = [name for name, v in (("w²", w ** 2), ("1/w²", w ** -2), ("w⁴", w ** 4), ("1/w⁴", w ** -4),
                                     ("w", w), ("1/w", 1 / w)) if w not in (0.0, 1.0) and abs(r - v) < 1e-3 * v]
        also = f" = {fits[0]} here" if fits else ""
        return (f"{also} (look at how w enters the kernel −½((x − x_i)·w)²)",
                f"{'（此处即 ' + fits[0] + '）' if fits else ''}（请检查 w 在核函数 −½((x − x_i)·w)² 中的位置）")
    return "", ""


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
