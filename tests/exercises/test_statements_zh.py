"""The Chinese statements read as Chinese: no ASCII space right after full-width punctuation
once the Markdown's emphasis marks are gone (as the page shows it), and Chinese quotation marks
around Chinese words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATEMENTS = sorted(Path(__file__).resolve().parents[2].glob("exercises/*/statement.zh.md"))


@pytest.mark.parametrize("path", STATEMENTS, ids=lambda p: p.parent.name)
def test_a_chinese_statement_keeps_its_punctuation_tight(path):
    text = re.sub(r"```.*?```|`[^`\n]*`", "x", path.read_text(encoding="utf-8"), flags=re.S)
    shown = text.replace("**", "").replace("__", "")
    loose = re.findall(r".{0,12}[，。：；！？）] (?![|\-])", shown)
    assert not loose, loose
    assert not re.findall(r'"[^"\n]*[\u4e00-\u9fff][^"\n]*"', text)  # “中文” not "中文"


def test_every_exercise_has_a_chinese_statement():
    assert len(STATEMENTS) >= 8


def _unclosed_bold(text: str) -> list[str]:
    """``**`` runs that CommonMark cannot close (issue 20: a literal ``**快速思考…：**三种`` on
    the page): a closing run preceded by punctuation must be followed by a space, punctuation
    or the end, or it is no closing delimiter at all."""
    import unicodedata

    def punct(ch: str) -> bool:
        return unicodedata.category(ch)[0] in "PS"

    bad, opened = [], False
    for m in re.finditer(r"\*\*", text):
        before = text[m.start() - 1] if m.start() else " "
        after = text[m.end()] if m.end() < len(text) else " "
        if opened and punct(before) and not (after.isspace() or punct(after)):
            bad.append(text[max(0, m.start() - 12):m.end() + 6])
        opened = not opened
    return bad


QUICK = sorted(Path(__file__).resolve().parents[2].glob("exercises/*/quickcheck.json"))


@pytest.mark.parametrize("path", STATEMENTS + QUICK, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_bold_marks_close_where_the_page_draws_them(path):
    import json

    raw = path.read_text(encoding="utf-8")
    texts = [raw] if path.suffix == ".md" else _strings(json.loads(raw))
    for text in texts:
        for para in re.sub(r"```.*?```|`[^`\n]*`", "x", text, flags=re.S).split("\n\n"):
            assert not _unclosed_bold(para), _unclosed_bold(para)


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def test_the_check_finds_the_page_s_literal_asterisks():
    assert _unclosed_bold("**快速思考（不计分）：**三种顺序")
    assert not _unclosed_bold("**快速思考**（不计分）：三种顺序")
    assert not _unclosed_bold("**A 部分（6 分）**。先算")
