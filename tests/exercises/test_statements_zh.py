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
