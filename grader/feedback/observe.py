"""Stage observations: what differs at the first output of a failed case, in the learner's terms.

Where no single hypothesis explains a part's failures (grader/feedback/explain.py names nothing), the
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

from grader.diagnose import TINY, arr, constant_fill
from grader.feedback import compare
from grader.feedback.judge import check_record, expected_of
from grader.feedback.observe_values import (
    constant_finding,
    nan_finding,
    rounded_finding,
    transposed_finding,
    values_finding,
)
from grader.feedback.premises import UNKNOWN, Premises
from grader.typed import Check, Record, TestCase
from grader.words import NOTHING, Finding, joined, say

# Exercises whose scores are a scaled dot product Q·Kᵀ / √d_k (the scale wording names d_k).
DOT_PRODUCT = frozenset({"manual-attention", "causal-mask", "multi-head-attention"})


def observe(cases: list[TestCase], failed: list, expected: dict[int, list[Record]],
            exercise: str | None = None, premises: Premises | None = None) -> None:
    """Replace the generic message of each failed, unnamed case by a stage observation.
    ``exercise`` (the id) decides which words fit: a scale of Q·Kᵀ only where scores are a
    dot product, a mask only where the case's inputs hide keys; ``premises`` (what the code
    itself already does, grader/feedback/premises.py) keep advice from telling it to do that."""
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
                return None  # a crash says its own thing (grader/feedback/raised.py)
            ref = expected[i] if i < len(expected) else None
            problem = check_record(chk, got[i], expected_of(chk, ref), case.labels[i], hidden=True)
            if problem is None:
                if chk.kind != "dtype" and step.op != "fixture":  # a right value, not only a right type
                    right.append(chk.label or case.labels[i])
                continue
            label = chk.label or case.labels[i]
            twin = _twin_call(case, got, i)
            if twin is not None:
                return say("stage.twin_call", fn=case.labels[i])
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
                said = {"en": problem["en"], "zh": problem["zh"]}
            else:
                said = finding.text()
            if right:
                names = joined("sep.list", [f"`{r}`" for r in dict.fromkeys(right)])
                text = say("stage.right_not", right=names, label=label, finding=said)
            else:
                text = say("stage.first_differs", label=label, finding=said)
            return {**text, "differs_at": label}
    return None


_LINEAR = re.compile(r"Linear\((\d+), (\d+), bias=(True|False)\)")


def _contract(got: Any, want: Any) -> dict | None:
    """One message naming the contract for a module's submodules: which are missing, of
    another type or size, or built without the bias the statement fixes. Only the contract's
    own names and descriptions are echoed (the learner's descriptions are matched, not shown)."""
    if not isinstance(want, dict) or not isinstance(got, dict):
        return None
    parts = []
    for name, spec in want.items():
        mine = got.get(name)
        if mine == spec:
            continue
        fixed = _LINEAR.fullmatch(str(spec))
        found = _LINEAR.fullmatch(mine) if isinstance(mine, str) else None
        layer = f"nn.Linear({fixed.group(1)}, {fixed.group(2)})" if fixed else str(spec)
        if mine == "missing":
            parts.append(say("contract.missing", name=name))
        elif fixed and found and found.groups()[:2] == fixed.groups()[:2] and found.group(3) != fixed.group(3):
            parts.append(say("contract.bias", name=name, bias=fixed.group(3), layer=layer))
        else:
            parts.append(say("contract.should_be", name=name, layer=layer))
    if not parts:
        return None
    return say("contract.differs", parts=joined("sep.clauses", parts))


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
             exercise: str | None = None, premises: Premises = UNKNOWN) -> Finding | None:
    constant = constant_finding(label, mine, want, premises)
    if constant:
        return constant
    rounded = rounded_finding(label, mine, want)
    if rounded:
        return rounded
    if not np.isfinite(mine).all() and np.isfinite(want).all():  # weights: where, against the mask
        if not _is_weights(want):
            return None  # compare.py's text, and the case's own hint, stay
        if _nan_columns_over_queries(mine):  # a padded key's column, softmaxed over queries
            return Finding("weights.wrong_axis", {"label": label})
        return nan_finding(label, mine, want, _hidden_keys(case, i, mine.shape, exercise), premises,
                           _input_scores(case, i, mine.shape))
    if _is_weights(want):
        return _weights_finding(label, mine, want, case, i, exercise, premises)
    return values_finding(label, mine, want, case, i, exercise)


def _nan_columns_over_queries(mine: np.ndarray) -> bool:
    """Weights whose NaN fill whole columns while every other column sums to 1 over the
    queries: a softmax over the wrong axis meeting a hidden key (blind set 4: it was told
    "your mask hides every key there", of a caller's mask that hides no row)."""
    if mine.ndim < 2 or mine.shape[-2] < 2:
        return False
    whole = np.isfinite(mine).all(axis=-2)  # (..., m): columns without NaN
    if whole.all() or not whole.any() or (~np.isfinite(mine)).sum() != (~whole).sum() * mine.shape[-2]:
        return False
    sums = np.where(whole, np.nan_to_num(mine).sum(axis=-2), 1.0)
    return bool(np.all(np.abs(sums - 1) < 1e-4))


def _weights_finding(label: str, mine: np.ndarray, want: np.ndarray, case: TestCase, i: int,
                     exercise: str | None = None, premises: Premises = UNKNOWN) -> Finding | None:
    masked = _hidden_keys(case, i, mine.shape, exercise)
    rows = mine.sum(axis=-1)
    if not np.all(np.abs(rows - 1) < 1e-4):
        if mine.shape[-2] > 1 and np.all(np.abs(mine.sum(axis=-2) - 1) < 1e-4):
            return Finding("weights.wrong_axis", {"label": label})
        return _row_sum_finding(label, mine, want, rows)
    uniform = (want.max(axis=-1) - want.min(axis=-1)) < 1e-9
    wrong_rows = ~np.isclose(mine, want, rtol=1e-4, atol=1e-6).all(axis=-1)
    if uniform.any() and wrong_rows.any() and not (wrong_rows & ~uniform).any():
        return Finding("weights.uniform_rows")
    hidden, shown = want <= TINY, mine > TINY
    extra = hidden & shown
    if extra.any() and masked is not None:
        found = _masked_keys_finding(mine, want, masked, extra, case, i, exercise, premises)
        if found:
            return found
    if extra.any():
        what = _hidden_pattern(mine, want)
        if what:  # the right number hidden, in the wrong place: where the mask is built
            return Finding("weights.mask_place", {"k": int(extra.sum()), "what": what})
        return Finding("weights.extra", {"k": int(extra.sum()), "what": NOTHING,
                                         "how": _how_to_hide(premises)})
    if (~shown & (want > 1e-3)).any():
        what = _hidden_pattern(mine, want) or NOTHING
        if masked is not None and not masked.any():
            return Finding("weights.zeroed_scores", {"what": what})
        return Finding("weights.zeroed_visible", {"what": what})
    heads = _same_heads(mine, want, case)
    if heads:
        return heads
    flipped = transposed_finding(label, mine, want, weights=True)
    if flipped:
        return flipped
    return _scale_finding(mine, want, case, i, exercise)


def _row_sum_finding(label: str, mine: np.ndarray, want: np.ndarray,
                     rows: np.ndarray) -> Finding:
    """Rows that do not sum to 1, with what the weights still share with the right ones: one
    factor for every weight, or the right proportions per row with the hidden keys at 0."""
    said = Finding("rows.said", {"label": label, "span": _span(rows)})
    big = want > 1e-6
    ratio = np.where(big, mine / np.where(big, want, 1.0), np.nan)
    if big.any() and np.isfinite(mine).all() and (np.abs(mine[~big]) <= 1e-9).all():
        lo, hi = np.nanmin(ratio, axis=-1), np.nanmax(ratio, axis=-1)
        per_row = np.nan_to_num(hi - lo) <= 1e-4 * np.maximum(np.nan_to_num(np.abs(hi)), 1e-12)
        if per_row.all():
            c = float(np.nanmedian(ratio))
            if np.allclose(ratio[big], c, rtol=1e-4):
                return Finding("rows.scaled", {"said": said, "c": c})
            if not (~big).any():
                return Finding("rows.wrong_sum", {"said": said})
            return Finding("rows.hidden_after", {"said": said})
    return Finding("rows.normalise", {"said": said})


def _masked_keys_finding(mine: np.ndarray, want: np.ndarray, masked: np.ndarray, extra: np.ndarray,
                         case: TestCase, i: int, exercise: str | None,
                         premises: Premises = UNKNOWN) -> Finding | None:
    """Weights that should be 0 and are not, told apart by what the case's inputs hide: keys
    the mask (valid_lens, a causal mask) hides, or visible keys whose scores lie far below the
    row's best (then the scores differ, and no mask advice applies)."""
    on_mask, off_mask = extra & masked, extra & ~masked
    if off_mask.any() and not on_mask.any():
        scaled = _scale_finding(mine, want, case, i, exercise)
        if scaled:
            return scaled
        k = int(off_mask.sum())
        if masked.any():
            return Finding("masked.visible_weight_1" if k == 1 else "masked.visible_weight", {"k": k})
        return Finding("masked.far_below", {"k": k})
    if not on_mask.any() or off_mask.any():
        return None
    visible = ~masked
    if constant_fill(mine, visible):
        return Finding("masked.constant_fill")
    rows = _query_axis_rows(case, i, mine.shape)
    if rows is not None:
        flat = (mine.max(axis=-1) - mine.min(axis=-1)) <= 1e-6 * np.maximum(mine.max(axis=-1), TINY)
        if (~rows).any() and np.array_equal(flat, ~rows) and rows.any() and (on_mask & rows[..., None]).any():
            return Finding("masked.query_axis")
    what = _hidden_pattern(mine, want)
    if what:  # the hidden set is there, in the wrong place: the mask, not the fill
        return Finding("masked.mask_place", {"k": int(on_mask.sum()), "what": what})
    return Finding("masked.hidden_weight", {"k": int(on_mask.sum()), "how": _how_to_hide(premises)})


def _how_to_hide(premises: Premises) -> Finding:
    """How keys are hidden, for code that writes no large negative fill yet; for code that
    does, where to look instead (which keys its mask picks, and where the fill goes)."""
    return Finding("hide.check_fill" if premises.writes_large_fill else "hide.how")


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


def _hidden_pattern(mine: np.ndarray, want: np.ndarray) -> Finding | None:
    """Whether the learner's hidden set is the transpose or a shifted copy of the right one."""
    got, right = mine > TINY, want > TINY
    if got.shape[-1] == got.shape[-2] and np.array_equal(got, np.swapaxes(right, -1, -2)):
        return Finding("pattern.transpose")
    for shift in (1, -1):
        moved = np.roll(right, shift, axis=-1)
        edge = (..., 0) if shift == 1 else (..., -1)
        moved[edge] = right[edge]
        if np.array_equal(got, moved):
            return Finding("pattern.shifted", {"shift": shift})
    return None


def _same_heads(mine: np.ndarray, want: np.ndarray, case: TestCase) -> Finding | None:
    """(B, h, n, m) weights whose heads all agree where the right ones differ."""
    if mine.ndim != 4 or mine.shape[1] < 2 or case.steps[0].op != "new":
        return None
    if np.allclose(mine, mine[:, :1], atol=1e-6) and not np.allclose(want, want[:, :1], atol=1e-6):
        return Finding("heads.same")
    return None


def _scale_finding(mine: np.ndarray, want: np.ndarray, case: TestCase, i: int,
                   exercise: str | None = None) -> Finding | None:
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
    return Finding("scale.factor", {"r": r, "which": _scale_name(r, case, i, exercise)})


def _scale_name(r: float, case: TestCase, i: int, exercise: str | None = None) -> dict[str, str]:
    """Which divisor the learner's scores fit, among the sizes this case has (d_k, d_v, E).
    Only scaled dot-product attention has a √d_k; elsewhere the factor is told as it is."""
    if exercise and exercise not in DOT_PRODUCT:
        return _other_scale(r, case, i, exercise)
    sizes = _sizes(case, i)
    if "d_k" not in sizes:
        return NOTHING
    divisor = math.sqrt(sizes["d_k"]) / r  # the learner divides Q·Kᵀ by this
    names = {"1 (no scaling)": 1.0, "d_k": float(sizes["d_k"])}
    for name in ("d_v", "E"):
        if name in sizes:
            names[f"√{name}"] = math.sqrt(sizes[name])
    hits = [n for n, v in names.items() if abs(divisor - v) < 1e-3 * v]
    also = say("scale.also", hits=" = ".join(hits)) if hits else NOTHING
    return say("scale.divisor", divisor=divisor, also=also, root=math.sqrt(sizes["d_k"]))


def _other_scale(r: float, case: TestCase, i: int, exercise: str | None) -> dict[str, str]:
    """The factor in words where scores have no √d_k: additive scores have no scale at all,
    and a kernel's scores change with how w enters it."""
    if exercise == "additive-attention":
        return say("scale.additive", size=say("scale.too_large" if r > 1 else "scale.too_small"))
    if exercise == "nadaraya-watson":
        args = case.steps[i].args
        w = float(arr(args[3])) if len(args) > 3 and arr(args[3]) is not None and arr(args[3]).size == 1 else 1.0
        fits = [name for name, v in (("w²", w ** 2), ("1/w²", w ** -2), ("w⁴", w ** 4), ("1/w⁴", w ** -4),
                                     ("w", w), ("1/w", 1 / w)) if w not in (0.0, 1.0) and abs(r - v) < 1e-3 * v]
        return say("scale.kernel", also=say("scale.kernel_also", fit=fits[0]) if fits else NOTHING)
    return NOTHING


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
