"""Chinese pages show the gradebook in Chinese: guest/API labels, the instructor's tables (headers,
sources, exercise titles, access log) and the starters' "not written yet" errors; the stored
keys (labels, ids, the CSV's columns) stay as they are."""

from __future__ import annotations

import re

import pytest

from grader.gradebook import Submission, open_gradebook
from webapp.views import gradebook_lang, gradebook_tables
from webapp.views.exercise_list import exercise_choices, exercise_title

ENGLISH = re.compile(r"(?<![0-9A-Za-z])[A-Za-z][A-Za-z_]*(?![0-9A-Za-z])")
TECHNICAL = {"API", "CSV", "UTC", "LAB_INSTRUCTORS"}


def english(values) -> set[str]:
    words = set()
    for v in values:
        words |= set(ENGLISH.findall(str(v)))
    return {w for w in words if w not in TECHNICAL and len(w) > 1}


@pytest.fixture
def book(tmp_path):
    book = open_gradebook(f"sqlite:///{tmp_path / 'gb.sqlite3'}")
    first, second = (i for _, i in exercise_choices()[:2])
    for learner, lid, ex in [("张伟 (guest)", "g:" + "a1" * 10, first), ("李娜 (api)", "api:lina", second),
                             ("王芳", "hf:wangfang", first)]:
        book.record(Submission(learner=learner, learner_id=lid, exercise=ex, code="x = 1\n",
                               score=1, max_score=2, tests=[]))
    book.log_access("password from 127.0.0.1", "view", "best scores")
    book.log_access("password from 10.0.0.7", "export", "csv with code")
    book.log_access("password from 10.0.0.8", "refused", "wrong password")
    book.log_access("password from 10.0.0.8", "export", "csv per learner")
    book.log_access("password from 10.0.0.8", "view", "learner page g:0123")
    yield book
    book.close()


def test_instructor_tables_in_chinese_keep_the_ids(book):
    en = gradebook_tables.everyone_frame(book)
    zh = gradebook_lang.instructor_frame(en, "zh")
    assert list(zh.columns) == [gradebook_lang.COLUMNS_ZH[c] for c in en.columns]
    for col in zh.columns:
        if col != "学习者编号":  # ids are keys (the CSV's), not words
            assert not english(zh[col]), (col, zh[col].tolist())
    assert set(zh["学习者"]) == {"张伟（访客）", "李娜（API）", "王芳"}
    assert sorted(zh["学习者编号"]) == sorted(en["learner id"])
    assert set(zh["练习"]) <= {exercise_title(i, "zh") for _, i in exercise_choices()}
    assert "访客（某个浏览器）" in set(zh["来源"]) and "API 标签（未验证）" in set(zh["来源"])
    log = gradebook_lang.access_frame(gradebook_tables.access_frame(book), "zh")
    assert list(log.columns) == ["时间", "谁", "操作", "详情"]
    for col in log.columns:
        assert not english(log[col]), (col, log[col].tolist())
    assert en["learner"].tolist() == gradebook_tables.everyone_frame(book)["learner"].tolist()
    # English pages show the stored words, with exercise titles (not ids) as in Chinese
    shown_en = gradebook_lang.instructor_frame(en, "en")
    assert list(shown_en.columns) == list(en.columns)
    assert shown_en.drop(columns="exercise").equals(en.drop(columns="exercise"))
    assert shown_en["exercise"].tolist() == [exercise_title(i, "en") for i in en["exercise"]]
    assert not set(shown_en["exercise"]) & {i for _, i in exercise_choices()}  # no slug left


def test_labels_and_starter_errors_on_a_chinese_page():
    assert gradebook_lang.show_label("alice (guest)", "zh") == "alice（访客）"
    assert gradebook_lang.show_label("carol (api)", "zh") == "carol（API）"
    assert gradebook_lang.show_label("alice (guest)", "en") == "alice (guest)"
    # what the starters raise (exercises/*/starter.py) and how the results table shows it
    text = ('`attention` 抛出了 NotImplementedError：attention is not written yet (d_k = 4, scale 0.5)'
            '\n\nFile "submission.py", line 20, in attention')
    zh = gradebook_lang.starter_text_zh(text)
    assert "还没有写" in zh and "（d_k = 4，缩放系数 0.5）" in zh and "第 20 行" in zh
    assert "written" not in zh and "File" not in zh and "line" not in zh
    masked = gradebook_lang.starter_text_zh("masked_softmax with valid_lens is not written yet")
    assert masked.startswith("`masked_softmax`（带 valid_lens） 还没有写")


def test_every_starter_message_is_translated():
    from pathlib import Path

    raised = []
    for starter in sorted((Path(__file__).resolve().parents[3] / "exercises").glob("*/starter.py")):
        raised += re.findall(r'NotImplementedError\(f?"([^"]*)"', starter.read_text(encoding="utf-8"))
    assert raised
    for message in raised:
        shown = gradebook_lang.starter_text_zh(message.replace("{d_k}", "4").replace(
            "{1 / math.sqrt(d_k)}", "0.5"))
        assert "not written yet" not in shown and "还没有写" in shown, message
