"""Diagnosis by properties: name a mistake from what the learner's own outputs show.

Mutant matching (explain.py) only names a bug written exactly like a mistake file. These
helpers look at properties instead: which keys get weight whatever fill value was used,
along which axis the weights sum to 1, which scale factor reproduces the scores. An
exercise opts in with ``hidden/<id>/diagnose.py``::

    def diagnose(case: TestCase, records: list[Record]) -> str | None

reading the typed case (``case.steps[i].op``, ``.name``, ``.args``, ``.kwargs``, ``.params``;
grader/typed.py) and the learner's records (``value_of``), and returning a mistake name only when one hypothesis fits the learner's outputs exactly (and
no other does), so a diagnosis is never a guess. Trusted side, numpy only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from grader.typed import Record, Step, TestCase

TINY = 1e-7  # a weight below this is "no weight" (exp of a fill of -30 or less)


def arr(value: Any) -> np.ndarray | None:
    """A float64 array of a tensor/array/list, or None when it is not numeric."""
    if value is None or isinstance(value, (bool, str, dict)):
        return None
    try:
        out = np.asarray(value.numpy() if hasattr(value, "numpy") else value, dtype=np.float64)
    except (TypeError, ValueError, RuntimeError):
        return None
    return out


def value_of(records: list[Record], step: int, select: int | None = None) -> Any:
    """The learner's value for one step (and tuple item), or None when absent (the step
    raised, or the case stopped before it)."""
    if step >= len(records) or records[step].error is not None or records[step].raised is not None:
        return None
    value = records[step].value
    if select is not None:
        if not isinstance(value, (tuple, list)) or len(value) <= select:
            return None
        value = value[select]
    return value


def first_call(case: TestCase, fn: str) -> tuple[int, Step] | tuple[None, None]:
    """(index, step) of the case's first call of the function ``fn`` by name, or (None, None)."""
    return next(((i, s) for i, s in enumerate(case.steps) if s.op == "call" and s.name == fn),
                (None, None))


def softmax(scores: np.ndarray, axis: int = -1) -> np.ndarray:
    """Stable softmax; rows whose scores are all -inf give NaN (like torch)."""
    with np.errstate(invalid="ignore", over="ignore"):
        top = np.max(scores, axis=axis, keepdims=True)
        e = np.exp(scores - top)
        return e / e.sum(axis=axis, keepdims=True)


def support(weights: np.ndarray) -> np.ndarray:
    """Where a weight is given (> TINY): the mask the learner applied, whatever its fill."""
    return np.nan_to_num(weights, nan=0.0) > TINY


def live_rows(pattern: np.ndarray) -> np.ndarray:
    """Rows (over the last axis) where ``pattern`` allows some key: fully blocked rows are
    NaN with -inf and uniform with a finite fill, so they say nothing about the mask."""
    return pattern.any(axis=-1)


def same_support(weights: np.ndarray, pattern: np.ndarray) -> bool:
    """The learner gives weight exactly where ``pattern`` allows it, on every live row."""
    pattern = np.broadcast_to(pattern, weights.shape)
    rows = live_rows(pattern)
    if not rows.any():
        return False
    return bool((support(weights)[rows] == pattern[rows]).all())


def sums_to_one(weights: np.ndarray, axis: int, tol: float = 1e-4) -> bool:
    w = np.nan_to_num(weights, nan=0.0)
    return bool(np.all(np.abs(w.sum(axis=axis) - 1.0) <= tol))


def fits(got: np.ndarray, candidate: np.ndarray, atol: float = 1e-4) -> bool:
    """Same values wherever both are finite (and at least most entries are)."""
    if got.shape != candidate.shape:
        return False
    ok = np.isfinite(got) & np.isfinite(candidate)
    if ok.mean() < 0.5:
        return False
    return bool(np.allclose(got[ok], candidate[ok], rtol=1e-4, atol=atol))


def dtype_of(value: Any) -> type:
    """numpy's float32 for a float32 tensor/array, else float64 (the precision exp() ran in)."""
    return np.float32 if "float32" in str(getattr(value, "dtype", "")) else np.float64


def global_max_shift(got: np.ndarray, scores: np.ndarray, dtype: type = np.float64) -> bool:
    """NaN exactly in the rows where exp(score − the whole tensor's one maximum) is 0 for every
    key (computed in ``dtype``, as the learner's code ran), and right in every other row: the
    maximum was taken over the whole tensor instead of each row (those rows underflow to 0/0).
    ``scores``: what is normalised, hidden keys already at their fill (−inf or a large negative)."""
    if got.shape != scores.shape or np.isfinite(got).all():
        return False
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        s = scores.astype(dtype)
        e = np.exp(s - s[np.isfinite(s)].max())
        total = e.sum(axis=-1)
    dead = total == 0
    bad = ~np.isfinite(got).all(axis=-1)
    if not dead.any() or not np.array_equal(bad, dead):
        return False
    if dead.all():
        return True
    candidate = e / np.where(dead, 1, total)[..., None]
    return fits(got[~dead], candidate[~dead].astype(np.float64))


def masked_after_softmax(weights: np.ndarray, expected: np.ndarray) -> bool:
    """Weight 0 exactly where the reference has 0, rows summing to less than 1, and the kept
    weights proportional to the reference's: a plain softmax, multiplied by the mask."""
    e = np.nan_to_num(expected, nan=0.0)
    blocked = e <= 0.0
    w = np.nan_to_num(weights, nan=0.0)
    if not blocked.any() or (w < -1e-12).any() or (support(w) & blocked).any():
        return False
    rows = blocked.any(axis=-1) & ~blocked.all(axis=-1)
    if not rows.any() or not (support(w) == ~blocked)[rows].all():
        return False
    sums = w.sum(axis=-1)
    if not (sums[rows] < 1 - 1e-6).all() or sums_to_one(w, -1):
        return False
    # kept weights proportional to the reference's in every row: W = E * (Z_kept / Z_all)
    ratio = np.where(blocked, np.nan, w / np.where(blocked, 1.0, e))
    spread = np.nanmax(ratio, axis=-1) - np.nanmin(ratio, axis=-1)
    return bool(np.all(np.nan_to_num(spread[rows]) <= 1e-4 * np.nanmax(ratio[rows], axis=-1)))


def unique(findings: Iterable[tuple[str, bool]]) -> str | None:
    """The one hypothesis that holds, or None when none or several do (never a guess)."""
    names = {name for name, holds in findings if holds}
    return names.pop() if len(names) == 1 else None


def first_fit(got: np.ndarray, candidates: dict[str, Callable[[], np.ndarray]]) -> str | None:
    """The name of the only candidate computation that reproduces ``got``."""
    hits = []
    for name, make in candidates.items():
        try:
            if fits(got, make()):
                hits.append(name)
        except (ValueError, FloatingPointError, IndexError):
            continue
    return hits[0] if len(set(hits)) == 1 else None


def constant_fill(weights: np.ndarray, visible: np.ndarray, tol: float = 1e-5) -> bool:
    """Hidden keys that get weight, the same weight for every hidden key of a row, with rows
    summing to 1: the hidden scores were filled with one ordinary number (0, -1...), which the
    softmax treats like any score. An ignored mask gives hidden keys the weights of their own
    (different) scores instead, so this needs a row with two hidden keys or more to say so."""
    w = np.nan_to_num(weights, nan=-1.0)
    visible = np.broadcast_to(visible, w.shape)
    hidden = ~visible
    rows = hidden.any(axis=-1) & visible.any(axis=-1)
    if not rows.any() or not sums_to_one(w, -1) or (hidden.sum(axis=-1)[rows] < 2).all():
        return False
    hw = np.where(hidden, w, np.nan)[rows]
    lo, hi = np.nanmin(hw, axis=-1), np.nanmax(hw, axis=-1)
    return bool((lo > TINY).all() and (hi - lo <= tol * hi).all())


def proportional_on(weights: np.ndarray, expected: np.ndarray, visible: np.ndarray,
                    tol: float = 1e-4) -> bool:
    """On every row, the weights of the visible keys are one multiple of the reference's (the
    visible scores are right; only what the hidden keys take away differs)."""
    w, e = np.nan_to_num(weights, nan=0.0), np.nan_to_num(expected, nan=0.0)
    visible = np.broadcast_to(visible, w.shape) & (e > TINY)
    rows = visible.any(axis=-1)
    if not rows.any():
        return False
    ratio = np.where(visible, w / np.where(visible, e, 1.0), np.nan)[rows]
    lo, hi = np.nanmin(ratio, axis=-1), np.nanmax(ratio, axis=-1)
    return bool(np.all(hi - lo <= tol * np.maximum(hi, TINY)))
