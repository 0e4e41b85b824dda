"""Trusted-side comparison of one output value with the expected one, in words safe to show."""

from __future__ import annotations

from typing import Any

import numpy as np

from grader.feedback import raised as feedback
from grader.sandbox.codec import Opaque
from grader.typed import Check
from grader.words import joined, say


def _kind(value: Any, hidden: bool = False) -> dict[str, str]:
    """What a value is, in both languages."""
    if isinstance(value, Opaque):
        name = feedback.safe_type(value.type_name, "") if hidden else value.type_name
        return say("kind.object", name=name) if name else say("kind.own_type")
    if value is None:
        return say("kind.none")
    if isinstance(value, np.ndarray):
        return say("kind.tensor") if hidden else say("kind.array", shape=tuple(value.shape))
    return say("kind.value", type=type(value).__name__)


def as_float_array(value: Any) -> np.ndarray | None:
    """Numbers, arrays and nested lists as float64; None when it is not numeric data."""
    if isinstance(value, bool) or value is None or isinstance(value, (str, Opaque, dict)):
        return None
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        return None
    return arr


def select(value: Any, path: tuple[int, ...] | list[int] | None, label: str,
           hidden: bool = False) -> tuple[Any, dict | None]:
    """Pick items out of a returned tuple; a clear message when it is not one."""
    for index in path or []:
        if not isinstance(value, (tuple, list)) or len(value) <= index:
            seq = isinstance(value, (tuple, list))
            what = (say("kind.sequence", type=type(value).__name__, count=len(value)) if seq
                    else _kind(value, hidden))
            return None, say("check.short_tuple", label=label, count=index + 1, what=what)
        value = value[index]
    return value, None


def _as_bool(value: Any) -> Any:
    """A one-element bool/number array as its Python value (the type is graded elsewhere)."""
    if isinstance(value, np.ndarray) and value.size == 1 and value.dtype.kind in "biuf":
        return bool(value.reshape(-1)[0]) if value.dtype.kind == "b" else value.reshape(-1)[0].item()
    return value


def _type_name(value: Any) -> str:
    if isinstance(value, np.ndarray):
        return "tensor"
    if isinstance(value, Opaque):
        return "object"
    return type(value).__name__


def _equal(spec: Check, label: str, got: Any, expected: Any, hidden: bool) -> dict | None:
    if isinstance(expected, bool):
        got = _as_bool(got)
        if isinstance(got, (bool, int)) and bool(got) == expected and got in (0, 1):
            return None
        if isinstance(got, (bool, int)) and got in (0, 1) and spec.true_means:
            wrong = spec.false_means if got else spec.true_means
            return say("check.bool_means", label=label, got=bool(got),
                       wrong={"en": wrong["en"], "zh": wrong["zh"]})
    elif same(got, expected):
        return None
    if isinstance(got, str) and got in spec.explain:
        return dict(spec.explain[got])
    if spec.fail:
        return dict(spec.fail)
    if not hidden:
        return say("check.equal_open", label=label, got=_short(got), want=_short(expected))
    if isinstance(expected, np.ndarray) and isinstance(got, np.ndarray):
        if got.shape != expected.shape:
            return _shape_msg(label, got, expected, hidden)
        if got.dtype != expected.dtype:
            return say("check.dtype", label=label, got=got.dtype.name, want=expected.dtype.name)
        if expected.dtype == bool:
            extra, missing = bool((got & ~expected).any()), bool((~got & expected).any())
            parts = [say(k) for k, on in (("check.true_where_false", extra),
                                          ("check.false_where_true", missing)) if on]
            return say("check.wrong_entries", label=label, parts=joined("sep.and", parts))
    if isinstance(expected, dict) and isinstance(got, dict):  # described attributes
        wrong = ", ".join(f"`{k}`" for k in expected if got.get(k) != expected[k])
        return say("check.attributes", label=label, wrong=wrong)
    return say("check.not_contract", label=label, what=_kind(got, True))


def _shape_msg(label: str, got: np.ndarray, expected: np.ndarray, hidden: bool) -> dict:
    want = tuple(expected.shape)
    have = tuple(got.shape)
    # On hidden cases the learner's shape could carry data: echo it only when it is plausible.
    if hidden and (got.ndim > 6 or got.size > 4 * max(1, expected.size) or
                   max(have, default=0) > max(max(want, default=1), 64)):
        return say("check.shape_hidden", label=label, want=want)
    return say("check.shape", label=label, have=have, want=want)


def compare(spec: Check, got: Any, expected: Any, hidden: bool = False) -> dict | None:
    """None when ``got`` satisfies ``spec`` against ``expected``, else a bilingual message.

    On hidden cases (``hidden``) messages never show expected values, and learner-chosen
    values only through a fixed vocabulary (see grader/feedback/raised.py).
    """
    label, kind = spec.label or "result", spec.kind
    if kind == "equal":
        return _equal(spec, label, got, expected, hidden)
    if kind == "type":
        if _type_name(got) == _type_name(expected):
            return None
        if spec.fail:
            return dict(spec.fail)
        want = _type_name(expected)
        return say("check.type_bool" if want == "bool" else "check.type", label=label, want=want,
                   what=_kind(got, True))
    if kind == "dtype":
        e = expected.dtype.name if isinstance(expected, np.ndarray) else type(expected).__name__
        if isinstance(got, np.ndarray) and got.dtype.name == e:
            return None  # only an array has a dtype: anything else is told by what it is
        if spec.fail:
            return dict(spec.fail)
        g = got.dtype.name if isinstance(got, np.ndarray) else _kind(got, True)
        return say("check.dtype", label=label, got=g, want=e)
    if kind == "shape":
        want = np.zeros(expected.shape if isinstance(expected, np.ndarray) else tuple(expected))
        if isinstance(got, np.ndarray) and tuple(got.shape) == want.shape:
            return None
        if not isinstance(got, np.ndarray):
            return say("check.shape_not_tensor", label=label, want=want.shape, what=_kind(got, hidden))
        return _shape_msg(label, got, want, hidden)
    # allclose
    if isinstance(got, str) and got in spec.explain:  # a probe's word for "no value"
        return dict(spec.explain[got])
    e_arr = as_float_array(expected)
    if e_arr is None:
        raise ValueError(f"internal: expected value for {label!r} is not numeric")
    if isinstance(got, np.ndarray) and got.shape != e_arr.shape:  # before converting it:
        return _shape_msg(label, got, e_arr, hidden)  # the work stays bounded by the expected
    g_arr = as_float_array(got)
    if g_arr is None:
        if got is None:
            return say("check.none", label=label)
        return say("check.not_numbers", label=label, what=_kind(got, hidden))
    if g_arr.shape != e_arr.shape:
        return _shape_msg(label, g_arr, e_arr, hidden)
    g_nan, e_nan = np.isnan(g_arr), np.isnan(e_arr)
    if (g_nan != e_nan).any():
        if not e_nan.any():
            return say("check.nan_finite", label=label)
        return say("check.nan_where", label=label)
    ok = np.isclose(g_arr, e_arr, rtol=spec.rtol, atol=spec.atol,
                    equal_nan=True)
    if ok.all():
        return None
    if spec.fail:
        return dict(spec.fail)
    if hidden:  # magnitudes and counts are learner-controlled: a qualitative word only
        where = _where_wrong(~ok, e_arr)
        if where:
            return say("check.wrong_where", label=label, where=where)
        share = ("share.every" if (~ok).all() else "share.most" if (~ok).mean() > 0.5
                 else "share.some")
        return say("check.wrong_share", label=label, share=say(share))
    diff = np.abs(np.where(e_nan, 0.0, g_arr - e_arr))
    worst = float(np.nanmax(diff)) if diff.size else 0.0
    return say("check.wrong_values", label=label, worst=worst, off=int((~ok).sum()), size=ok.size)


def _where_wrong(bad: np.ndarray, expected: np.ndarray) -> dict[str, str] | None:
    """Where the wrong entries sit, when a mask explains it: only at entries that should be 0
    (hidden keys), or only in rows that hide some keys. None when it says nothing."""
    zero = expected == 0
    if expected.ndim < 2 or not zero.any() or zero.all():
        return None
    if not (bad & ~zero).any():
        return say("where.hidden_keys")
    rows = np.broadcast_to(zero.any(axis=-1, keepdims=True), zero.shape)
    if not (bad & ~rows).any() and rows.mean() < 1:
        return say("where.masked_rows")
    return None


def same(got: Any, expected: Any) -> bool:
    """Exact equality, with arrays compared as arrays (shape, dtype, then values) and sequences
    item by item, stopping at the first difference: the work is bounded by the expected value,
    never by what the learner sent (a (2**19, 0) tensor's .tolist() built 2**19 lists from 0
    bytes, about 20 times per grade). Lists and tuples compare alike, as they did as lists."""
    if isinstance(expected, np.ndarray) or isinstance(got, np.ndarray):
        return (isinstance(expected, np.ndarray) and isinstance(got, np.ndarray)
                and got.shape == expected.shape and got.dtype == expected.dtype
                and bool(np.array_equal(got, expected)))
    if isinstance(expected, (list, tuple)):
        return (isinstance(got, (list, tuple)) and len(got) == len(expected)
                and all(same(g, e) for g, e in zip(got, expected, strict=True)))
    if isinstance(expected, dict):
        return (isinstance(got, dict) and got.keys() == expected.keys()
                and all(same(got[k], v) for k, v in expected.items()))
    if isinstance(got, (list, tuple, dict)):
        return False
    return bool(got == expected)


SHORT = 120  # characters of a value shown on a public example


def _short(value: Any) -> str | dict[str, str]:
    """A value in at most SHORT characters, built from at most that many items: the text
    of a huge value is never made whole and then cut. An array is said in each language
    (its rows as rows: a 3 x 3 mask read as 9 values in a row was hard to check)."""
    if isinstance(value, np.ndarray):
        items = _rows(value, [SHORT - 30])
        return say("value.array", shape=str(tuple(value.shape)), dtype=value.dtype.name,
                   items=items)
    text = _preview(value, [SHORT + 1])
    return text if len(text) <= SHORT else text[:SHORT - 3] + "..."


def _rows(value: np.ndarray, left: list[int]) -> str:
    """An array's items as nested brackets, row by row, until ``left[0]`` characters are spent."""
    if value.ndim <= 1:
        flat = value.reshape(-1)[: max(0, left[0]) // 2 + 1]
        text = "[" + ", ".join(repr(x) for x in flat.tolist()) + (
            ", ...]" if flat.size < value.size else "]")
        left[0] -= len(text)
        return text
    parts = []
    for row in value:
        if left[0] <= 0:
            parts.append("...")
            break
        parts.append(_rows(row, left))
    return "[" + ", ".join(parts) + "]"


def _preview(value: Any, left: list[int]) -> str:
    """repr-like text of ``value`` that stops once ``left[0]`` characters are spent."""
    if left[0] <= 0:
        return "..."
    if isinstance(value, np.ndarray):
        flat = value.reshape(-1)[: max(0, left[0]) // 2 + 1]  # enough items to fill the budget
        items = ", ".join(repr(x) for x in flat.tolist()) + (", ..." if flat.size < value.size else "")
        text = f"array of shape {tuple(value.shape)}, {value.dtype.name}: [{items}]"
    elif isinstance(value, (list, tuple)):
        parts = []
        for item in value:
            if left[0] <= 0:
                parts.append("...")
                break
            parts.append(_preview(item, left))
        open_, close = ("[", "]") if isinstance(value, list) else ("(", ",)" if len(value) == 1 else ")")
        text = open_ + ", ".join(parts) + close
    elif isinstance(value, dict):
        parts = []
        for k, v in value.items():
            if left[0] <= 0:
                parts.append("...")
                break
            parts.append(f"{_preview(k, left)}: {_preview(v, left)}")
        text = "{" + ", ".join(parts) + "}"
    elif isinstance(value, str):
        text = repr(value[: left[0] + 1])
    else:
        text = repr(value)[: left[0] + 1]
    left[0] -= len(text)
    return text
