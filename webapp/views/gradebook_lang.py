"""Gradebook text as a Chinese page shows it: labels, the instructor's tables, starter errors.

The gradebook stores English keys (labels such as "alice (guest)", sources, access actions,
exercise ids); they stay its keys and the CSV's. Only what a page shows is translated here.
"""

from __future__ import annotations

import re

import pandas as pd

# Suffixes the gradebook appends to typed labels (grader/gradebook/identity.py).
_SUFFIX_ZH = {" (guest)": "（访客）", " (api)": "（API）"}
# The instructor's best-scores table and access log (webapp/views/gradebook_tables.py).
COLUMNS_ZH = {"learner": "学习者", "learner id": "学习者编号", "source": "来源", "exercise": "练习",
              "best": "最高分", "max": "满分", "attempts": "提交次数", "best #": "最高分提交编号",
              "first best at": "首次最高分时间", "last at": "最近提交时间", "when": "时间",
              "who": "谁", "action": "操作", "detail": "详情"}
SOURCES_ZH = {"before ids (unverified)": "编号启用之前（未验证）", "signed in (verified)": "已登录（已验证）",
              "guest (one browser)": "访客（某个浏览器）", "API (unverified label)": "API 标签（未验证）",
              "unknown": "未知"}
ACTIONS_ZH = {"view": "查看", "export": "导出", "refused": "被拒绝"}
DETAILS_ZH = {"best scores": "最高分", "csv": "CSV", "csv with code": "CSV（含代码）",
              "wrong password": "密码错误", "not on LAB_INSTRUCTORS": "不在 LAB_INSTRUCTORS 名单中"}
_PASSWORD_FROM = re.compile(r"^password from (.+)$")
# What the exercises' starters raise before a function is written (exercises/*/starter.py), and
# where the traceback says it happened: as the Chinese results table shows them.
_NOT_WRITTEN = re.compile(r"([A-Za-z_]\w*)( with valid_lens)? is not written yet"
                          r"(?: \(d_k = ([^,]+), scale ([^)]+)\))?")
_TRACE_LINE = re.compile(r'File "([^"]+)", line (\d+), in (\S+)')


def show_label(label: str, lang: str) -> str:
    """A stored label as the page shows it: "alice (guest)" reads "alice（访客）" in Chinese."""
    if lang != "zh" or not isinstance(label, str):
        return label
    for suffix, zh in _SUFFIX_ZH.items():
        if label.endswith(suffix):
            return label[: -len(suffix)] + zh
    return "匿名" if label == "anonymous" else label


def _who(who: str) -> str:
    m = _PASSWORD_FROM.match(who or "")
    return f"密码登录（来自 {m[1]}）" if m else who


def instructor_frame(frame: pd.DataFrame | None, lang: str) -> pd.DataFrame | None:
    """The best-scores table in the page's language: headers, sources, labels and exercise
    titles (the learner id stays: it is the CSV's key)."""
    if frame is None or lang != "zh":
        return frame
    from webapp.views.exercise_list import exercise_title

    out = frame.copy()
    if "learner" in out:
        out["learner"] = [show_label(x, lang) for x in out["learner"]]
    if "source" in out:
        out["source"] = [SOURCES_ZH.get(x, x) for x in out["source"]]
    if "exercise" in out:
        out["exercise"] = [exercise_title(x, lang) for x in out["exercise"]]
    return out.rename(columns=COLUMNS_ZH)


def access_frame(frame: pd.DataFrame | None, lang: str) -> pd.DataFrame | None:
    """The instructor access log in the page's language."""
    if frame is None or lang != "zh":
        return frame
    out = frame.copy()
    if "who" in out:
        out["who"] = [_who(x) for x in out["who"]]
    if "action" in out:
        out["action"] = [ACTIONS_ZH.get(x, x) for x in out["action"]]
    if "detail" in out:
        out["detail"] = [DETAILS_ZH.get(x, x) for x in out["detail"]]
    return out.rename(columns=COLUMNS_ZH)


def starter_text_zh(text: str) -> str:
    """A result message on a Chinese page: the starter's "f is not written yet" and the
    traceback's 'File "submission.py", line 20, in f' in Chinese (names stay as code)."""
    def not_written(m: re.Match) -> str:
        extra = "（带 valid_lens）" if m[2] else ""
        numbers = f"（d_k = {m[3]}，缩放系数 {m[4]}）" if m[3] else ""
        return f"`{m[1]}`{extra} 还没有写：这是起始代码中的占位{numbers}"

    text = _NOT_WRITTEN.sub(not_written, text)
    return _TRACE_LINE.sub(lambda m: f"`{m[1]}` 第 {m[2]} 行，`{m[3]}` 函数中", text)
