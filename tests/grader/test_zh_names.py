"""Walk-through issue 4: every case has a Chinese name shown on Chinese pages (the English
name stays the stored key), and value descriptions in Chinese messages are Chinese."""

from __future__ import annotations

import re

import numpy as np
import pytest

from grader.exercises import all_exercises
from grader.feedback import compare, judge
from grader.paths import deployment_seed
from grader.spec import Case, call, check, zh_names
from grader.typed import Check, Record
from webapp.views.report_view import results_frame

CJK = re.compile("[\u4e00-\u9fff]")


@pytest.mark.parametrize("ex_id", list(all_exercises()))
def test_every_case_of_every_exercise_has_a_chinese_name(ex_id):
    ex = all_exercises()[ex_id]
    for cases in (ex.hidden_cases(deployment_seed()), ex.hidden_cases(12345, cache=False),
                  ex.examples()):
        names = [c.zh for c in cases]
        assert all(n and CJK.search(n) for n in names), [c.name for c in cases if not c.zh]
        assert len(set(names)) == len(names)  # one row per name in the results table
        assert all(c.zh != c.name for c in cases)


def test_a_case_without_a_chinese_name_is_refused():
    step = call("f", 1, check=check("allclose"))

    @zh_names({"a": "甲"})
    def build(_rng):
        return [Case("a", 1.0, [step]), Case("b", 1.0, [step])]

    with pytest.raises(ValueError, match="'b'"):
        build(None)


def test_report_keeps_the_english_key_and_the_table_shows_the_page_language(grader):
    report = grader.grade("masked-softmax", "def masked_softmax(X, valid_lens=None):\n    return X\n")
    data = report.to_gradescope()
    assert [t["name"] for t in data["tests"]] == [c.name for c in
                                                  all_exercises()["masked-softmax"].hidden_cases(deployment_seed())]
    zh = data["extra_data"]["names_zh"]
    assert set(zh) == {t["name"] for t in data["tests"]} and all(CJK.search(v) for v in zh.values())
    zh_names_shown = results_frame(report, "zh")["测试"].tolist()
    assert sorted(zh_names_shown) == sorted(zh.values())
    assert sorted(results_frame(report, "en")["test"].tolist()) == sorted(t["name"] for t in data["tests"])
    # a repeated problem points back to the first test by its name in the message's language
    repeats = [t for t in report.tests if t.message["en"].startswith("Same ")]
    assert repeats
    for t in repeats:
        quoted = re.search("“(.*)”", t.message["zh"]).group(1)
        assert CJK.search(quoted) and quoted in {r.name_zh for r in report.tests}


@pytest.mark.parametrize("value", [np.zeros((2, 3)), None, 3.5, "text"])
def test_chinese_messages_describe_values_in_chinese(value):
    _, problem = compare.select(value, [1], "weights", hidden=True)
    assert not re.search(r"\ban? (tensor|float|str)\b|an array", problem["zh"]), problem["zh"]
    assert "实际得到" in problem["zh"]
    shape = judge.check_record(Check(kind="allclose"), Record(value=value), np.zeros(3), "weights",
                               hidden=True)
    assert shape is not None and not re.search(r"\ban? (float|str)\b", shape["zh"]), shape["zh"]


def test_chinese_names_survive_the_bundle_disk_cache():
    from grader import bundle

    ex = all_exercises()["causal-mask"]
    built = bundle.build(ex, 7)
    again = bundle._from_data(bundle._to_data(built))  # what a later process reads from disk
    assert [c.zh for c in again.cases] == [c.zh for c in built.cases] and all(c.zh for c in again.cases)
