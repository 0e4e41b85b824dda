"""Exercise list from the public files (no torch) and a grader report as Markdown + a table."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

EXERCISES_DIR = Path(__file__).resolve().parents[2] / "exercises"
MAX_CODE_CHARS = 200_000


def exercise_choices(root: Path = EXERCISES_DIR, lang: str = "en") -> list[tuple[str, str]]:
    """(label, id) for every exercise folder, in lesson order: read from exercise.json only.
    The label is "<number>. <title>" in ``lang`` (one language per page).

    The page needs the list when it is built; the grader's own registry imports torch, which
    the app defers until first use (grader/FORMAT.md fixes this layout).
    """
    found = []
    for meta in sorted(root.glob("*/exercise.json")):
        try:
            info = json.loads(meta.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue  # a half-written exercise must not take the app down
        title = info.get("title", {})
        name = title.get("zh" if lang == "zh" else "en") or title.get("en") or info["id"]
        found.append((info.get("number", 999), f"{info.get('number', '?')}. {name}", info["id"]))
    return [(label, ex_id) for _, label, ex_id in sorted(found)]


def exercise_title(exercise_id: str, lang: str = "en", root: Path = EXERCISES_DIR) -> str:
    """"<number>. <title>" of an exercise in ``lang``; the id itself when it is unknown."""
    return dict((i, label) for label, i in exercise_choices(root, lang)).get(exercise_id, exercise_id)


# A stored submission's status (grader/report.py's Report.status), as a learner reads it.
STATUS_NAMES = {
    "graded": ("graded", "已评分"), "syntax_error": ("syntax error", "语法错误"),
    "load_error": ("error while loading", "加载出错"), "timeout": ("time limit", "超时"),
    "crashed": ("crashed", "运行崩溃"), "malformed": ("malformed output", "输出不合法"),
    "output_limit": ("too much output", "输出过多"), "result_limit": ("result too large", "结果过大"),
}


def status_name(status: str, lang: str = "en") -> str:
    """A submission status in the learner's language (an unknown one as it is)."""
    names = STATUS_NAMES.get(status)
    return names[1 if lang == "zh" else 0] if names else status


def public_text(exercise_id: str, name: str, root: Path = EXERCISES_DIR) -> str:
    """One public file of an exercise (statement.en.md, statement.zh.md, starter.py)."""
    ids = {ex_id for _, ex_id in exercise_choices(root)}
    if exercise_id not in ids:
        raise ValueError(f"unknown exercise {exercise_id!r}; choose one of {', '.join(sorted(ids))}")
    path = root / exercise_id / name
    return path.read_text(encoding="utf-8") if path.is_file() else ""


def check_code(code: str | None) -> str:
    """The submission text, or a ValueError a learner understands (empty or too long)."""
    if code is None or not str(code).strip():
        raise ValueError("the code is empty: start from the starter code, or upload a .py / .ipynb")
    if len(code) > MAX_CODE_CHARS:
        raise ValueError(f"the code is longer than {MAX_CODE_CHARS} characters")
    return code


def score_markdown(report: dict, lang: str = "en") -> str:
    """Headline of a Gradescope-shaped report: score and summary.

    The internal mistake ids (extra_data.mistakes, for instructors and the gradebook) are not
    shown: each failed test's own message already explains the mistake in words."""
    zh = lang == "zh"
    score, top = report.get("score", 0), report.get("max_score", 0)
    lines = [f"## {'得分' if zh else 'Score'}: {score:g} / {top:g}"]
    if report.get("output"):
        lines.append(report["output"])
    return "\n\n".join(lines)


def test_name(test: dict, lang: str = "en", names_zh: dict | None = None) -> str:
    """A test's name in ``lang``: on a Chinese page its Chinese name (the report's
    extra_data.names_zh) when the case has one; the English name is the stored key."""
    name = test.get("name", "")
    return ((names_zh or {}).get(name) if lang == "zh" else None) or name


def results_frame(report: dict, lang: str = "en") -> pd.DataFrame:
    """One row per test, failed ones first: name, pass/fail, points and the message."""
    zh = lang == "zh"
    cols = ["测试", "结果", "得分", "满分", "说明"] if zh else ["test", "result", "score", "max", "message"]
    tests = report.get("tests", [])
    tests = [t for t in tests if t.get("status") != "passed"] + [t for t in tests if t.get("status") == "passed"]
    names_zh = (report.get("extra_data") or {}).get("names_zh") or {}
    rows = [(test_name(t, lang, names_zh), "✓" if t.get("status") == "passed" else "✗", t.get("score", 0),
             t.get("max_score", 0), t.get("output", "")) for t in tests]  # fmt: skip
    return pd.DataFrame(rows, columns=cols)  # failed tests first; the message column is Markdown
