"""Trusted-side comparison of one output value with the expected one, in words safe to show."""

from __future__ import annotations

from typing import Any

import numpy as np

from grader import feedback
from grader.codec import Opaque
from grader.model import Check
from grader.report import bilingual as _msg


def _kind(value: Any, hidden: bool = False, lang: str = "en") -> str:
    """What a value is, in the message's language (``lang`` "zh" for the Chinese half)."""
    zh = lang == "zh"
    if isinstance(value, Opaque):
        name = feedback.safe_type(value.type_name, "") if hidden else value.type_name
        if zh:
            return f"一个 {name} 对象" if name else "一个你自定义类型的对象"
        return f"a {name} object" if name else "an object of your own type"
    if value is None:
        return "None"
    if isinstance(value, np.ndarray):
        if zh:
            return "一个张量" if hidden else f"一个形状为 {tuple(value.shape)} 的数组"
        return "a tensor" if hidden else f"an array of shape {tuple(value.shape)}"
    return f"一个 {type(value).__name__}" if zh else f"a {type(value).__name__}"


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
            what = f"a {type(value).__name__} of {len(value)} items" if seq else _kind(value, hidden)
            what_zh = (f"含 {len(value)} 项的 {type(value).__name__}" if seq
                       else _kind(value, hidden, "zh"))
            return None, _msg(
                f"`{label}`: expected a tuple with at least {index + 1} items, got {what}.",
                f"`{label}`：应返回至少含 {index + 1} 项的元组，实际得到{what_zh}。",
            )
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
            return _msg(f"`{label}` returns {bool(got)} where {wrong['en']}.",
                        f"`{label}` 返回了 {bool(got)}，但{wrong['zh']}。")
    elif same(got, expected):
        return None
    if isinstance(got, str) and got in spec.explain:
        return dict(spec.explain[got])
    if spec.fail:
        return dict(spec.fail)
    if not hidden:
        return _msg(f"`{label}` is {_short(got)}, expected {_short(expected)}.",
                    f"`{label}` 的值是 {_short(got)}，应为 {_short(expected)}。")
    if isinstance(expected, np.ndarray) and isinstance(got, np.ndarray):
        if got.shape != expected.shape:
            return _shape_msg(label, got, expected, hidden)
        if got.dtype != expected.dtype:
            return _msg(f"`{label}` has dtype {got.dtype.name}, expected {expected.dtype.name}.",
                        f"`{label}` 的 dtype 是 {got.dtype.name}，应为 {expected.dtype.name}。")
        if expected.dtype == bool:
            extra, missing = bool((got & ~expected).any()), bool((~got & expected).any())
            en = " and ".join(w for w, on in (("True where it should be False", extra),
                                                  ("False where it should be True", missing)) if on)
            zh = "，".join(w for w, on in (("有应为 False 的位置是 True", extra),
                                          ("有应为 True 的位置是 False", missing)) if on)
            return _msg(f"`{label}` has wrong entries: {en}.", f"`{label}` 的元素不对：{zh}。")
    if isinstance(expected, dict) and isinstance(got, dict):  # described attributes
        wrong = ", ".join(f"`{k}`" for k in expected if got.get(k) != expected[k])
        return _msg(f"`{label}`: {wrong} missing or not what the contract says (names, types and "
                    "sizes are in the statement).",
                    f"`{label}`：{wrong} 缺失或与约定不符（名称、类型和尺寸见题目说明）。")
    return _msg(f"`{label}` is not what the contract asks for here ({_kind(got, True)}).",
                f"`{label}` 不符合约定（实际得到{_kind(got, True, 'zh')}）。")


def _shape_msg(label: str, got: np.ndarray, expected: np.ndarray, hidden: bool) -> dict:
    want = tuple(expected.shape)
    have = tuple(got.shape)
    # On hidden cases the learner's shape could carry data: echo it only when it is plausible.
    if hidden and (got.ndim > 6 or got.size > 4 * max(1, expected.size) or
                   max(have, default=0) > max(max(want, default=1), 64)):
        return _msg(f"`{label}` has the wrong shape: expected {want}.",
                    f"`{label}` 的形状不对：应为 {want}。")
    return _msg(f"`{label}` has shape {have}, expected {want}.",
                f"`{label}` 的形状是 {have}，应为 {want}。")


def compare(spec: Check, got: Any, expected: Any, hidden: bool = False) -> dict | None:
    """None when ``got`` satisfies ``spec`` against ``expected``, else a bilingual message.

    On hidden cases (``hidden``) messages never show expected values, and learner-chosen
    values only through a fixed vocabulary (see grader/feedback.py).
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
        return _msg(f"`{label}` should be a Python {want}, got {_kind(got, True)}"
                    + (" (convert with `bool(...)`)." if want == "bool" else "."),
                    f"`{label}` 应为 Python {want}，实际得到{_kind(got, True, 'zh')}"
                    + ("（请用 `bool(...)` 转换）。" if want == "bool" else "。"))
    if kind == "dtype":
        g = got.dtype.name if isinstance(got, np.ndarray) else _kind(got, True)
        e = expected.dtype.name if isinstance(expected, np.ndarray) else type(expected).__name__
        if g == e:
            return None
        if spec.fail:
            return dict(spec.fail)
        g_zh = g if isinstance(got, np.ndarray) else _kind(got, True, "zh")
        return _msg(f"`{label}` has dtype {g}, expected {e}.", f"`{label}` 的 dtype 是 {g_zh}，应为 {e}。")
    if kind == "shape":
        want = np.zeros(expected.shape if isinstance(expected, np.ndarray) else tuple(expected))
        if isinstance(got, np.ndarray) and tuple(got.shape) == want.shape:
            return None
        if not isinstance(got, np.ndarray):
            return _msg(f"`{label}` should be a tensor of shape {want.shape}, got {_kind(got, hidden)}.",
                        f"`{label}` 应为形状 {want.shape} 的张量，实际得到{_kind(got, hidden, 'zh')}。")
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
            return _msg(f"`{label}` is None: nothing was returned.", f"`{label}` 是 None：没有返回任何值。")
        return _msg(f"`{label}` should be numbers (a tensor), got {_kind(got, hidden)}.",
                    f"`{label}` 应为数值（张量），实际得到{_kind(got, hidden, 'zh')}。")
    if g_arr.shape != e_arr.shape:
        return _shape_msg(label, g_arr, e_arr, hidden)
    g_nan, e_nan = np.isnan(g_arr), np.isnan(e_arr)
    if (g_nan != e_nan).any():
        if not e_nan.any():
            return _msg(f"`{label}` contains NaN where the right values are all finite numbers.",
                        f"`{label}` 中出现了 NaN，而正确的值全是有限的数。")
        return _msg(f"`{label}` contains NaN where it should not (or lacks it where expected).",
                    f"`{label}` 在不该出现 NaN 的位置出现了 NaN（或相反）。")
    ok = np.isclose(g_arr, e_arr, rtol=spec.rtol, atol=spec.atol,
                    equal_nan=True)
    if ok.all():
        return None
    if spec.fail:
        return dict(spec.fail)
    if hidden:  # magnitudes and counts are learner-controlled: a qualitative word only
        where = _where_wrong(~ok, e_arr)
        if where:
            return _msg(f"`{label}` has the right shape but wrong values {where[0]}.",
                        f"`{label}` 形状正确，但数值不对：{where[1]}。")
        share = ("every entry" if (~ok).all() else "most entries" if (~ok).mean() > 0.5
                 else "some entries")
        share_zh = {"every entry": "所有元素", "most entries": "大部分元素", "some entries": "部分元素"}[share]
        return _msg(f"`{label}` has the right shape but wrong values in {share}.",
                    f"`{label}` 形状正确，但{share_zh}的数值不对。")
    diff = np.abs(np.where(e_nan, 0.0, g_arr - e_arr))
    worst = float(np.nanmax(diff)) if diff.size else 0.0
    return _msg(f"`{label}` has the right shape but wrong values (largest difference {worst:.3g}, "
                f"{int((~ok).sum())} of {ok.size} entries off).",
                f"`{label}` 形状正确但数值不对（最大误差 {worst:.3g}，{ok.size} 个元素中有 "
                f"{int((~ok).sum())} 个不符）。")


def _where_wrong(bad: np.ndarray, expected: np.ndarray) -> tuple[str, str] | None:
    """Where the wrong entries sit, when a mask explains it: only at entries that should be 0
    (hidden keys), or only in rows that hide some keys. None when it says nothing."""
    zero = expected == 0
    if expected.ndim < 2 or not zero.any() or zero.all():
        return None
    if not (bad & ~zero).any():
        return ("only where keys should be hidden (they get weight)", "错误只出现在应被隐藏的键上（它们得到了权重）")
    rows = np.broadcast_to(zero.any(axis=-1, keepdims=True), zero.shape)
    if not (bad & ~rows).any() and rows.mean() < 1:
        return ("only in rows where the mask hides keys", "错误只出现在掩码隐藏了部分键的行中")
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


def _short(value: Any) -> str:
    """A value in at most SHORT characters, built from at most that many items: the text
    of a huge value is never made whole and then cut."""
    text = _preview(value, [SHORT + 1])
    return text if len(text) <= SHORT else text[:SHORT - 3] + "..."


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
