"""Starter code in the page's language (issue 20, item 10): on a Chinese page the comments and
docstrings are Chinese, the code itself is the very same (same AST once docstrings are set
aside), and no translation goes stale when a starter's comment changes."""

from __future__ import annotations

import ast
import io
import json
import re
import tokenize

import pytest

from grader.exercises import all_exercises
from webapp.views.exercise_list import public_text, starter_text

CJK = re.compile(r"[\u4e00-\u9fff]")
IDS = sorted(all_exercises())


def _code_only(src: str) -> str:
    tree = ast.parse(src)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(getattr(body[0], "value", None), ast.Constant) \
                and isinstance(body[0].value.value, str):
            body[0].value.value = "<docstring>"
    return ast.dump(tree)


@pytest.mark.parametrize("ex", IDS)
def test_the_chinese_starter_is_the_same_code_with_chinese_comments(ex):
    en, zh = public_text(ex, "starter.py"), starter_text(ex, "zh")
    assert starter_text(ex, "en") == en
    for key in json.loads(public_text(ex, "starter.zh.json"))["comments"]:
        assert key in en, f"{ex}: a translated comment is no longer in starter.py: {key!r}"
    assert _code_only(zh) == _code_only(en)
    comments = [t.string for t in tokenize.generate_tokens(io.StringIO(zh).readline)
                if t.type == tokenize.COMMENT]
    # A comment is English when it has a word that is neither code (a name in the file, a shape
    # like (B, n, m)) nor TODO; shape comments and code in comments stay as they are.
    names = set(re.findall(r"[A-Za-z_]\w*", en)) - set(re.findall(r"[A-Za-z_]\w*", " ".join(
        c for c in (t.string for t in tokenize.generate_tokens(io.StringIO(en).readline)
                    if t.type == tokenize.COMMENT))))
    def is_english(text: str) -> bool:
        return not CJK.search(text) and any(
            w not in names and w != "TODO" and len(w) >= 4 and w.isalpha()
            for w in re.findall(r"[A-Za-z_]\w*", text))

    english = [c for c in comments if is_english(c)]
    assert english == [], f"{ex}: comments left in English: {english}"
    docstrings = [ast.get_docstring(n) for n in ast.walk(ast.parse(zh))
                  if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef)) and ast.get_docstring(n)]
    assert [d for d in docstrings if is_english(d)] == [], docstrings
