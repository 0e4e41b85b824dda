"""transformer_lab.message.Message: one text in English and Chinese, its wire form, its cost."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys

import pytest

from transformer_lab.message import Message


def test_text_picks_a_language_and_falls_back_to_english():
    m = Message("loss", "损失")
    assert (m.text("en"), m.text("zh")) == ("loss", "损失")
    assert m.text("fr") == "loss"  # like webapp.i18n.tr and grader.report.render
    assert Message("only English", "").text("zh") == "only English"


def test_the_wire_form_is_the_plain_en_zh_dict():
    m = Message("Wrong password.", "密码错误。")
    wire = m.as_dict()
    assert type(wire) is dict and wire == {"en": "Wrong password.", "zh": "密码错误。"}
    assert json.loads(json.dumps(wire, ensure_ascii=False)) == wire
    assert Message.of(wire) == m and Message.of({"en": "x"}) == Message("x", "")


def test_format_fills_both_languages_and_messages_are_values():
    m = Message("{rows} submissions", "{rows} 次提交").format(rows=3)
    assert m == Message("3 submissions", "3 次提交") and hash(m) == hash(Message("3 submissions", "3 次提交"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.en = "changed"  # type: ignore[misc]
    with pytest.raises(TypeError, match="zh"):
        Message("loss", None)  # type: ignore[arg-type]


def test_importing_it_pulls_in_no_heavy_package():
    code = ("import sys, transformer_lab.message; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "{'torch', 'numpy', 'pandas', 'gradio', 'plotly', 'webapp', 'grader', 'gradebook'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
