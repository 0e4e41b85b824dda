"""Exercise list from the public files (no torch) and a grader report as Markdown + a table."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

EXERCISES_DIR = Path(__file__).resolve().parent.parent / "exercises"
MAX_CODE_CHARS = 200_000


def exercise_choices(root: Path = EXERCISES_DIR) -> list[tuple[str, str]]:
    """(label, id) for every exercise folder, in lesson order: read from exercise.json only.

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
        label = f"{info.get('number', '?')}. {title.get('en', info['id'])} · {title.get('zh', '')}"
        found.append((info.get("number", 999), label.rstrip(" ·"), info["id"]))
    return [(label, ex_id) for _, label, ex_id in sorted(found)]


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


def results_frame(report: dict, lang: str = "en") -> pd.DataFrame:
    """One row per test, failed ones first: name, pass/fail, points and the message."""
    zh = lang == "zh"
    cols = ["测试", "结果", "得分", "满分", "说明"] if zh else ["test", "result", "score", "max", "message"]
    tests = report.get("tests", [])
    tests = [t for t in tests if t.get("status") != "passed"] + [t for t in tests if t.get("status") == "passed"]
    rows = [(t["name"], "✓" if t.get("status") == "passed" else "✗", t.get("score", 0),
             t.get("max_score", 0), t.get("output", "")) for t in tests]  # fmt: skip
    return pd.DataFrame(rows, columns=cols)  # failed tests first; the message column is Markdown
