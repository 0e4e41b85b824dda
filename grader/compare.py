"""Trusted-side comparison of a submission's outputs with the expected ones, on raw values only."""

from __future__ import annotations

from typing import Any

import numpy as np

from grader.codec import Opaque


def _msg(en: str, zh: str) -> dict[str, str]:
    return {"en": en, "zh": zh}


def _kind(value: Any) -> str:
    if isinstance(value, Opaque):
        return f"a {value.type_name} object"
    if isinstance(value, np.ndarray):
        return f"an array of shape {tuple(value.shape)}"
    return f"a {type(value).__name__}"


def as_float_array(value: Any) -> np.ndarray | None:
    """Numbers, arrays and nested lists as float64; None when it is not numeric data."""
    if isinstance(value, bool) or value is None or isinstance(value, (str, Opaque, dict)):
        return None
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        return None
    return arr


def select(value: Any, path: list[int] | None, label: str) -> tuple[Any, dict | None]:
    """Pick items out of a returned tuple; a clear message when it is not one."""
    for index in path or []:
        if not isinstance(value, (tuple, list)) or len(value) <= index:
            return None, _msg(
                f"`{label}`: expected a tuple with at least {index + 1} items, got {_kind(value)}.",
                f"`{label}`：应返回至少含 {index + 1} 项的元组，实际得到 {_kind(value)}。",
            )
        value = value[index]
    return value, None


def compare(spec: dict, got: Any, expected: Any) -> dict | None:
    """None when ``got`` satisfies ``spec`` against ``expected``, else a bilingual message."""
    label, kind = spec.get("label", "result"), spec["kind"]
    if kind == "equal":
        if _plain(got) == _plain(expected):
            return None
        return _msg(f"`{label}` is {_short(got)}, expected {_short(expected)}.",
                    f"`{label}` 的值是 {_short(got)}，应为 {_short(expected)}。")
    if kind == "dtype":
        g = got.dtype.name if isinstance(got, np.ndarray) else type(got).__name__
        e = expected.dtype.name if isinstance(expected, np.ndarray) else type(expected).__name__
        if g == e:
            return None
        return _msg(f"`{label}` has dtype {g}, expected {e} (keep the dtype of the inputs).",
                    f"`{label}` 的 dtype 是 {g}，应为 {e}（请保持与输入相同的 dtype）。")
    if kind == "shape":
        want = tuple(expected.shape) if isinstance(expected, np.ndarray) else tuple(expected)
        have = tuple(got.shape) if isinstance(got, np.ndarray) else None
        if have == want:
            return None
        return _msg(f"`{label}` should be a tensor of shape {want}, got {_kind(got)}.",
                    f"`{label}` 应为形状 {want} 的张量，实际得到 {_kind(got)}。")
    # allclose
    g_arr, e_arr = as_float_array(got), as_float_array(expected)
    if e_arr is None:
        raise ValueError(f"internal: expected value for {label!r} is not numeric")
    if g_arr is None:
        return _msg(f"`{label}` should be numbers (a tensor, array or list), got {_kind(got)}.",
                    f"`{label}` 应为数值（张量、数组或列表），实际得到 {_kind(got)}。")
    if g_arr.shape != e_arr.shape:
        return _msg(f"`{label}` has shape {tuple(g_arr.shape)}, expected {tuple(e_arr.shape)}.",
                    f"`{label}` 的形状是 {tuple(g_arr.shape)}，应为 {tuple(e_arr.shape)}。")
    g_nan, e_nan = np.isnan(g_arr), np.isnan(e_arr)
    if (g_nan != e_nan).any():
        return _msg(f"`{label}` contains NaN where it should not (or lacks it where expected).",
                    f"`{label}` 在不该出现 NaN 的位置出现了 NaN（或相反）。")
    ok = np.isclose(g_arr, e_arr, rtol=spec.get("rtol", 1e-5), atol=spec.get("atol", 1e-6),
                    equal_nan=True)
    if ok.all():
        return None
    diff = np.abs(np.where(e_nan, 0.0, g_arr - e_arr))
    worst = float(np.nanmax(diff)) if diff.size else 0.0
    return _msg(f"`{label}` has the right shape but wrong values (largest difference {worst:.3g}, "
                f"{int((~ok).sum())} of {ok.size} entries off).",
                f"`{label}` 形状正确但数值不对（最大误差 {worst:.3g}，{ok.size} 个元素中有 "
                f"{int((~ok).sum())} 个不符）。")


def _plain(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return ("array", value.dtype.name, value.tolist())
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _short(value: Any) -> str:
    text = repr(_plain(value)) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 120 else text[:117] + "..."


def check_record(spec: dict, record: dict, expected: Any, fn_label: str,
                 literal: bool = False) -> dict | None:
    """Judge one step's record (value / raised / error) against the expected value."""
    label = spec.get("label", fn_label)
    if "error" in record:
        err = record["error"]
        if err["type"] == "NameError" and err["message"].startswith("your code does not define"):
            return _msg(err["message"][0].upper() + err["message"][1:] + ".",
                        "你的代码没有定义 " + err["message"].split()[-1] + "。")
        return _msg(f"`{fn_label}` raised {err['type']}: {err['message'][:300]}",
                    f"`{fn_label}` 抛出了 {err['type']}：{err['message'][:300]}")
    if spec["kind"] == "raises":
        raised = record.get("raised")
        if raised is None:
            return _msg(f"`{fn_label}` should raise {expected} here, but it returned normally.",
                        f"此处 `{fn_label}` 应当抛出 {expected}，但它正常返回了。")
        if expected not in raised:
            return _msg(f"`{fn_label}` raised {raised[0]}, expected {expected}.",
                        f"`{fn_label}` 抛出了 {raised[0]}，应为 {expected}。")
        return None
    got, problem = select(record.get("value"), spec.get("select"), label)
    if problem:
        return problem
    exp, problem = (expected, None) if literal else select(expected, spec.get("select"), label)
    if problem:
        raise ValueError(f"internal: expected value for {label!r} lacks the selected item")
    return compare(spec, got, exp)


def expected_of(spec: dict, ref_record: dict | None) -> Any:
    """The literal expected value of a check, or the reference's output for the step."""
    if "expected" in spec:
        return spec["expected"]
    if ref_record is None or "error" in ref_record:
        raise ValueError(f"internal: the reference failed on a check labelled {spec.get('label')!r}")
    if spec["kind"] == "raises":
        return ref_record["raised"][0] if ref_record.get("raised") else None
    return ref_record.get("value")


def records_match(spec: dict, got: dict, other: dict) -> bool:
    """Whether two runs produced the same checked output (used to name a known mistake)."""
    if "error" in got or "error" in other:
        return "error" in got and "error" in other and got["error"]["type"] == other["error"]["type"]
    if spec["kind"] == "raises":
        return (got.get("raised") or [None])[0] == (other.get("raised") or [None])[0]
    try:
        return check_record(spec, got, other.get("value"), "x") is None
    except ValueError:  # the other run's value is not comparable data
        return False
