"""The Exercises page's load (red team, 2026-12-02): a forged remembered exercise or an odd
stored test row never breaks the page's one load event; the last submission shown again is
the browser's own."""

from __future__ import annotations

import gradio as gr
import pytest
from lab_support import LAB

from gradebook import Submission, open_gradebook
from gradebook import identity as ids
from webapp.views.report_view import last_result_markdown, results_frame, stored_report

GOOD = {"name": "Part A: scores", "score": 0.0, "max_score": 2.0, "passed": False,
        "message": {"en": "wrong", "zh": "不对"}, "mistake": None, "details": "",
        "visible": False, "name_zh": "A 部分：分数"}
ODD = [{**GOOD, "message": "a string"}, {**GOOD, "score": None}, {**GOOD, "details": 3},
       {**GOOD, "passed": "false"}, {**GOOD, "max_score": float("nan")}, {**GOOD, "name": 7},
       {**GOOD, "message": {"en": 1}}, "not a dict", 12, None, {}]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_odd_stored_rows_are_left_out_and_the_rest_shown(lang):
    report = stored_report("manual-attention", [*ODD, GOOD], "graded")
    assert [t.name for t in report.tests] == ["Part A: scores"]
    assert len(results_frame(report, lang)) == 1
    text = last_result_markdown(report, "2026-12-02T10:00:00+00:00", lang)
    assert "2026-12-02 10:00" in text and "0 / 2" in text
    assert stored_report("manual-attention", "not a list").tests == []


@pytest.fixture
def page(tmp_path, monkeypatch):
    from webapp.pages import exercises, sign_in

    book = open_gradebook(f"sqlite:///{tmp_path / 'gb.sqlite3'}")
    old = LAB.submitter.use_gradebook(book)
    with gr.Blocks() as blocks:
        exercises.build(LAB, sign_in.build(LAB))
    opens = [f.fn for f in blocks.fns.values() if f.name == "on_open"]
    yield opens[0], book
    LAB.submitter.use_gradebook(old)
    book.close()


def _request(session: str) -> gr.Request:
    return gr.Request(headers={"accept-language": "en-US"}, session_hash=session)


def test_a_forged_place_or_odd_row_still_opens_the_page(page):
    on_open, book = page
    key = ids.new_browser_key()
    owner = ids.guest_id(key)
    book.record(Submission(learner="ada (guest)", learner_id=owner, exercise="causal-mask",
                           code="x = 1\n", score=0, max_score=2,
                           tests=[*ODD[:4], *ODD[5:], GOOD]))  # the gradebook refuses NaN
    for forged in ({"exercise": ["a"]}, {"exercise": {"b": 1}}, {"exercise": "../../etc"},
                   {"exercise": 3}, ["causal-mask"], "causal-mask", None):
        out = on_open("manual-attention", {}, forged, key, _request("s1"))
        assert out[3] == "manual-attention"  # the exercise on screen: the first, as given
    out = on_open("manual-attention", {}, {"exercise": "causal-mask"}, key, _request("s2"))
    assert out[3] == "causal-mask" and "Your last submission" in out[5] and len(out[4]) == 1
    # Another browser's key (or none) sees nothing of it
    for other in (ids.new_browser_key(), "", None, key[:-1]):
        out = on_open("manual-attention", {}, {"exercise": "causal-mask"}, other, _request("s3"))
        assert out[5] == "" and len(out[4]) == 0
