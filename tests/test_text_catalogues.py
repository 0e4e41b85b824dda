"""Words live in catalogues (issue 23): learner-facing Chinese is written only in the modules
made for it, never inline in product code, so a sentence has one home and rewording it
changes one line.

Catalogues: the app's (webapp/i18n/), the library's (transformer_lab/words.py), the grader's
(grader/words/) and each exercise's own examples (exercises/*/examples.py, an exercise's data).
Only string literals count: comments and docstrings may quote a Chinese word they explain.

RATCHET held how many Chinese literals each grader file still wrote inline; issue 23 moved them
all into grader/words/, so it is empty. A file may only go down; a new file, or more in one of
these, fails.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")  # ideographs (not punctuation)
PRODUCT = ("app.py", "transformer_lab", "grader", "webapp", "exercises")
CATALOGUES = ("webapp/i18n/*.py", "transformer_lab/words.py", "exercises/*/examples.py",
              "grader/words/*.py")
RATCHET: dict[str, int] = {}


def product_files() -> list[Path]:
    out = []
    for top in PRODUCT:
        path = REPO / top
        out += [path] if path.is_file() else sorted(path.rglob("*.py"))
    return out


def chinese_literals(path: Path) -> int:
    """String literals holding CJK text, docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docs.add(id(body[0].value))
    parts = {id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)
             for v in node.values}  # an f-string counts once, as a whole

    def text(node: ast.AST) -> str:
        if isinstance(node, ast.JoinedStr):
            return "".join(v.value for v in node.values if isinstance(v, ast.Constant))
        return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else ""

    return sum(1 for node in ast.walk(tree) if id(node) not in docs and id(node) not in parts
               and CJK.search(text(node)))


def test_chinese_is_written_only_in_the_catalogues():
    catalogues = {p for pattern in CATALOGUES for p in REPO.glob(pattern)}
    found = {str(p.relative_to(REPO)): n for p in product_files() if p not in catalogues
             and (n := chinese_literals(p))}
    over = {f: n for f, n in found.items() if n > RATCHET.get(f, 0)}
    assert not over, f"Chinese outside the catalogues (move it into one): {over}"
    assert any(chinese_literals(p) for p in catalogues), "the scan found nothing at all: has the layout moved?"
    moved = {f: (n, found.get(f, 0)) for f, n in RATCHET.items() if found.get(f, 0) < n}
    assert not moved, f"lower RATCHET to what is left (file: (recorded, now)): {moved}"


def test_the_scan_sees_literals_not_comments_or_docstrings(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('"""文档。"""\n# 注释\ndef f():\n    """说明。"""\n    return "你好", "hi"\n',
                      encoding="utf-8")
    assert chinese_literals(sample) == 1
