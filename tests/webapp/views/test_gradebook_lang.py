"""Chinese pages show the gradebook in Chinese: guest/API labels, the instructor's tables (headers,
sources, exercise titles, access log) and the starters' "not written yet" errors; the stored
keys (labels, ids, the CSV's columns) stay as they are."""

from __future__ import annotations

import re

import pytest

from gradebook import Submission, open_gradebook
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


def test_labels_on_a_chinese_page():
    assert gradebook_lang.show_label("alice (guest)", "zh") == "alice（访客）"
    assert gradebook_lang.show_label("carol (api)", "zh") == "carol（API）"
    assert gradebook_lang.show_label("alice (guest)", "en") == "alice (guest)"


@pytest.fixture(scope="module")
def grader():
    from grader.api import Grader

    with Grader() as g:
        yield g


@pytest.mark.parametrize("exercise_id", sorted(i for _, i in exercise_choices()))
def test_every_starter_error_reads_in_chinese_with_its_line(grader, exercise_id):
    """What a starter raises before a function is written, on the public examples and on the
    hidden tests, as a Chinese results table shows it: said in Chinese with its line, from the
    report's fields (no English sentence of a starter is translated back)."""
    from grader.exercises import get
    from webapp.views.report_view import results_frame

    starter = get(exercise_id).starter
    for report in (grader.run_examples(exercise_id, starter), grader.grade(exercise_id, starter)):
        raised = [t for t in report.tests if not t.passed and t.frame]
        shown = "\n".join(results_frame(report, "zh").iloc[:, 4])
        assert "not written yet" not in shown and 'File "submission.py"' not in shown
        for t in raised:
            assert f"第 {t.frame[0]} 行" in t.where("zh") and t.where("en").startswith('File "submission.py"')
        if any("NotImplementedError" in t.message["en"] for t in report.tests):
            assert "还没有写" in shown


def test_a_reworded_catalogue_sentence_still_reads_back(monkeypatch):
    """Access-log sentences are written and read from one catalogue entry: rewording it moves
    both (rows written before keep their old words)."""
    from webapp import i18n

    stored = gradebook_lang.access_text("gb.who.password", "203.0.113.9")
    assert stored == "password from 203.0.113.9"  # the log's stored words stay English
    assert gradebook_lang._in_lang(stored, gradebook_lang.WHO_KEYS, "zh") == "密码登录（来自 203.0.113.9）"
    monkeypatch.setitem(i18n.EN, "gb.who.password", "signed in with the password, from {address}")
    reworded = gradebook_lang.access_text("gb.who.password", "203.0.113.9")
    assert reworded == "signed in with the password, from 203.0.113.9"
    assert gradebook_lang._in_lang(reworded, gradebook_lang.WHO_KEYS, "zh") == "密码登录（来自 203.0.113.9）"
    detail = gradebook_lang.access_text("gb.detail.learner_page", "Ada (guest)")
    assert gradebook_lang._in_lang(detail, gradebook_lang.DETAIL_FIELD_KEYS, "zh") == "学习者页面 Ada (guest)"


def test_chinese_statements_show_no_space_where_the_source_wraps():
    """A soft line break between Chinese characters renders as a space (chromium walk:
    "源句子 中的词"); the page joins those lines, and leaves code blocks alone."""
    from webapp.views.exercise_list import statement_text
    from webapp.views.markdown import joined_cjk_lines

    assert joined_cjk_lines("源句子\n中的词\n\n```\n# 中\n文\n```\n") == "源句子中的词\n\n```\n# 中\n文\n```\n"
    assert joined_cjk_lines("`x`\n形状") == "`x`\n形状"  # a code span then Chinese: a space is fine
    cjk = "\u3000-\u303f\u4e00-\u9fff\uff00-\uffef"
    for _, ex in exercise_choices():
        shown = statement_text(ex, "zh")
        outside_code = re.sub(r"^```.*?^```", "", shown, flags=re.M | re.S)
        assert not re.search(f"[{cjk}]\\n[{cjk}]", outside_code), ex
