"""One Message type (issue 10): the library's figure labels, the grader's feedback and the app's
catalogue build their bilingual text with transformer_lab.message.Message, and every report
still carries the plain {"en", "zh"} dict on the wire."""

from __future__ import annotations

import subprocess
import sys

from grader import report
from grader.feedback import raised as feedback
from grader.typed import ErrorInfo
from transformer_lab import tables, words
from transformer_lab.message import Message
from webapp import i18n


def test_library_labels_are_messages():
    assert words.WORDS and all(isinstance(m, Message) for m in words.WORDS.values())
    assert tables.word("loss", "zh") == words.WORDS["loss"].text("zh") == "损失"
    assert tables.word("loss", "zh-CN") == "损失" and tables.word("loss", "en") == "loss"
    steps = tables.multihead_shape_steps(2, 3, 4, 8, 2, "zh")
    assert steps[0] == ("查询 X_q", (2, 3, 8)) and steps[-1][1] == (2, 3, 8)


def test_the_catalogue_gives_the_same_type_and_the_same_wire_form():
    m = i18n.message("instructor.count", rows=3, learners=2)
    assert isinstance(m, Message)
    assert m.text("en") == "3 submissions from 2 learners." and m.text("zh") == "3 次提交，2 位学习者。"
    assert i18n.both("instructor.count", rows=3, learners=2) == m.as_dict()
    assert type(i18n.both("trainq.busy")) is dict and set(i18n.both("trainq.busy")) == {"en", "zh"}


def test_grader_feedback_is_built_from_messages_and_sent_as_dicts():
    sent = feedback.error_text(ErrorInfo("RuntimeError", ("RuntimeError",), "mat1 and mat2 shapes "
                                         "cannot be multiplied (6x4 and 3x4)", ""), "attention",
                               frozenset({3, 4, 6}))
    assert type(sent) is dict and set(sent) == {"en", "zh"}
    assert ': "mat1 and mat2 shapes cannot be multiplied (6x4 and 3x4)".' in sent["en"]
    assert "抛出了 RuntimeError" in sent["zh"] and sent["zh"].endswith("。")
    assert report.bilingual("a", "甲") == Message("a", "甲").as_dict() == {"en": "a", "zh": "甲"}
    shown = report.Report("x", tests=[report.TestResult("t", 0, 1, False, sent)]).to_gradescope("zh")
    assert shown["tests"][0]["output"] == sent["zh"]


def test_the_grader_still_imports_no_torch_no_gradio_no_webapp():
    code = ("import sys, grader.feedback.raised, grader.report; print(sorted({m.split('.')[0] for m in "
            "sys.modules} & {'torch', 'gradio', 'webapp', 'numpy'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
