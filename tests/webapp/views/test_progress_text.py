"""Walk-through issue 4 on My progress and the name status: titles instead of exercise ids,
statuses and the anonymous label in the page's language (the gradebook keeps its keys)."""

from __future__ import annotations

import re

import pandas as pd

from webapp.i18n import tr
from webapp.pages.progress import readable
from webapp.views.exercise_list import exercise_choices, exercise_title
from webapp.views.report_view import status_name

CJK = re.compile("[\u4e00-\u9fff]")


def test_progress_tables_show_titles_and_translated_statuses():
    ids = [i for _, i in exercise_choices()]
    en = pd.DataFrame([("1", ids[0], 1.0, 12.0, "3/9", "graded", "now"),
                       ("2", ids[1], 0.0, 8.0, "0/5", "timeout", "now")],
                      columns=["#", "exercise", "score", "max", "tests passed", "status", "submitted"])
    shown = readable(en, "en")
    assert shown["exercise"].tolist() == [exercise_title(ids[0]), exercise_title(ids[1])]
    assert shown["exercise"][0].startswith("1. ") and ids[0] not in shown["exercise"][0]
    assert shown["status"].tolist() == ["graded", "time limit"]
    zh = en.set_axis(["#", "练习", "得分", "满分", "通过测试", "状态", "提交时间"], axis=1)
    shown = readable(zh, "zh")
    assert all(CJK.search(v) for v in shown["练习"]) and all(CJK.search(v) for v in shown["状态"])
    assert "graded" not in shown["状态"].tolist()
    assert en["exercise"].tolist() == ids[:2]  # the stored ids are left alone
    best = pd.DataFrame([(ids[0], 1.0)], columns=["练习", "最高分"])  # the best-scores table
    assert readable(best, "zh")["练习"][0] == exercise_title(ids[0], "zh")


def test_every_report_status_has_a_chinese_name_and_unknown_ones_pass_through():
    for status in ("graded", "syntax_error", "load_error", "timeout", "crashed", "malformed",
                   "output_limit", "result_limit"):
        assert CJK.search(status_name(status, "zh")) and "_" not in status_name(status, "en")
    assert status_name("something-new", "zh") == "something-new"
    assert exercise_title("no-such-exercise", "zh") == "no-such-exercise"


def test_exercise_labels_are_in_one_language():
    for (en, ex_id), (zh, same) in zip(exercise_choices(lang="en"), exercise_choices(lang="zh"), strict=True):
        assert ex_id == same and "·" not in en and not CJK.search(en)
        assert CJK.search(zh) and en.split(".")[0] == zh.split(".")[0]


def test_the_anonymous_label_is_translated_on_chinese_pages():
    zh = tr("who.anonymous", "zh")
    assert "匿名" in zh and "anonymous" not in zh
    assert "anonymous" in tr("who.anonymous", "en")
