"""The Instructor page's class view events (issue 20): drawn only for a session whose sign-in
succeeded, checked again at every draw, idle while off screen, a timer's redraws logged once
per 10 minutes, and the access log redrawn after a view or an export."""

from __future__ import annotations

import csv
import io

import gradio as gr
import pytest
from lab_support import LAB

from gradebook import Submission, open_gradebook

PASSWORD = "correct horse battery staple"
NAMED = {"name": "Part A: weights", "name_zh": "A 部分：权重", "passed": False, "score": 0.0,
         "max_score": 1.0, "mistake": "no-scale", "message": {"en": "x", "zh": "x"}}


def _request(lang: str = "en-US"):
    from starlette.requests import Request

    scope = {"type": "http", "method": "POST", "path": "/", "query_string": b"",
             "headers": [(b"accept-language", lang.encode())], "client": ("198.51.100.9", 1)}
    return gr.Request(request=Request(scope), session_hash="teacher")


@pytest.fixture
def page(monkeypatch, tmp_path):
    from webapp.pages import instructor, sign_in
    from webapp.serving.ratelimit import FailureLimiter

    monkeypatch.setenv("LAB_INSTRUCTOR_PASSWORD", PASSWORD)
    monkeypatch.delenv("LAB_INSTRUCTORS", raising=False)
    book = open_gradebook(f"sqlite:///{tmp_path / 'gb.sqlite3'}")
    book.record(Submission(learner="alice (guest)", learner_id="g:" + "a" * 20,
                           exercise="causal-mask", code="x = 1\n", score=0, max_score=1,
                           tests=[NAMED]))
    old_book = LAB.submitter.use_gradebook(book)
    monkeypatch.setattr(LAB.serving, "password_tries",
                        FailureLimiter(per_client=50, client_window_s=600))
    with gr.Blocks() as blocks:
        instructor.build(LAB, sign_in.build(LAB))
    fns = {f.name: f.fn for f in blocks.fns.values()}
    yield fns, book
    LAB.submitter.use_gradebook(old_book)
    book.close()


def test_the_show_event_says_whether_this_session_signed_in(page):
    fns, _ = page
    assert fns["on_show_page"](PASSWORD, None, _request(), None)[-1] is True
    assert fns["on_show_page"]("wrong", None, _request(), None)[-1] is False


def test_nothing_is_read_or_logged_for_a_session_that_never_signed_in(page):
    fns, book = page
    out = fns["on_class"](PASSWORD, "", None, 0, True, False, _request(), None)
    assert out[0]["visible"] is False and out[-1] is False and book.access_log() == []


def test_a_signed_in_draw_shows_the_class_and_logs_it(page):
    fns, book = page
    out = fns["on_class"](PASSWORD, "", None, 0, True, True, _request(), None)
    (box, _since, status, grid, stuck, mistakes, who, scores, bars, picks, timer, pick, log,
     signed) = out
    assert pick["choices"] == [("alice (guest)", "id:g:" + "a" * 20)]  # whose page to open
    assert box["visible"] is True and signed is True and timer.active is True
    assert 'data-learner="id:g:' in grid and "All submissions: 1 from 1 learner." in status
    assert mistakes["visible"] is True and picks[0][:2] == ("causal-mask", "no-scale")
    assert log["visible"] is True and "class view" in set(log["value"]["detail"])
    assert (book.access_log(1)[0].action, book.access_log(1)[0].detail) == ("view", "class view")
    assert scores is not None and bars is not None
    # A click on the first mistake lists alice (from this session's own draw).
    from webapp.pages import class_view

    assert "alice (guest)" in class_view.who_made(picks, 0, "en")
    assert "cv-who-list" not in class_view.who_made(picks, 5, "en")


def test_off_screen_the_timer_stops_and_nothing_is_read(page):
    fns, book = page
    out = fns["on_class_tick"](PASSWORD, "", None, 0, False, True, _request(), None)
    assert out[10].active is False and out[-1] is True and book.access_log() == []


def test_a_timers_redraws_are_logged_once_per_ten_minutes(page):
    fns, book = page
    for _ in range(3):
        fns["on_class_tick"](PASSWORD, "", None, 0, True, True, _request(), None)
    assert [e.detail for e in book.access_log()] == ["class view (refreshed)"]


def test_a_wrong_password_at_a_redraw_hides_everything(page, monkeypatch):
    fns, book = page
    out = fns["on_class"]("not it at all", "", None, 0, True, True, _request(), None)
    assert out[0]["visible"] is False and out[-2]["visible"] is False and out[-1] is False
    assert out[10].active is False
    assert book.access_log(1)[0].action == "refused"


@pytest.mark.parametrize("lang,word", [("en-US", "HH:MM"), ("zh-CN", "HH:MM")])
def test_a_start_time_that_is_no_time_says_so_in_the_pages_language(page, lang, word):
    fns, _ = page
    out = fns["on_class"](PASSWORD, "noon", None, 0, True, True, _request(lang), None)
    assert word in out[2] and "noon" in out[2]
    if lang == "zh-CN":
        assert "不是时间" in out[2]


def test_an_export_redraws_the_access_log_and_its_csv_names_the_mistakes(page):
    fns, _ = page
    out = fns["on_export_page"](PASSWORD, False, None, _request(), None)
    assert out[2]["visible"] is True and "export" in set(out[2]["value"]["action"])
    with open(out[1]["value"], encoding="utf-8") as f:
        (row,) = list(csv.DictReader(io.StringIO(f.read())))
    assert row["mistakes"] == "no-scale" and row["stage"] == "Part A: weights"
    assert row["mistake_names"] and row["mistake_names"] != "no-scale"


def test_a_learners_page_shows_every_attempt_its_feedback_and_what_changed(page):
    """Issue 25, item 7: the teacher opens one learner's attempts (code, score, named
    mistakes, the feedback shown, a diff with the attempt before), checked and logged."""
    fns, book = page
    key = "id:g:" + "a" * 20
    book.record(Submission(learner="alice (guest)", learner_id="g:" + "a" * 20,
                           exercise="causal-mask", code="x = 2\n<script>alert(1)</script>\n",
                           score=1, max_score=1, tests=[{**NAMED, "passed": True, "score": 1.0}]))
    html = fns["on_learner"](PASSWORD, key, None, True, 0, _request(), None)
    assert "alice (guest): 2 attempts" in html and html.count('class="lp-attempt"') == 2
    assert "attempt 2: 1/1" in html and "attempt 1: 0/1" in html
    assert '<span class="lp-del">-x = 1</span>' in html and "+x = 2" in html  # the diff
    assert "<script>" not in html and "&lt;script&gt;" in html  # code is text, never markup
    assert "Part A: weights</b>: x" in html  # the feedback the learner read
    assert book.access_log(1)[0].detail == "learner page g:" + "a" * 20
    zh = fns["on_learner"](PASSWORD, key, None, True, -480, _request("zh-CN"), None)
    assert "第 2 次尝试" in zh and "A 部分：权重</b>：x" in zh
    # Logged once per learner, however often the picker fires or the view redraws it.
    again = fns["on_learner_redraw"](PASSWORD, key, None, True, 0, _request(), None)
    assert "attempt 2: 1/1" in again
    assert [e.detail for e in book.access_log()].count("learner page g:" + "a" * 20) == 1
    assert "lp-none" in fns["on_learner"](PASSWORD, "", None, True, 0, _request(), None)
    # Not signed in, a wrong password, or nobody behind the key: nothing of anyone's code.
    for args in ((PASSWORD, key, None, False, 0), ("wrong", key, None, True, 0),
                 (PASSWORD, "id:nobody", None, True, 0), (PASSWORD, "garbage", None, True, 0)):
        out = fns["on_learner"](*args, _request(), None)
        assert 'id="lp-none"' in out and "x = 2" not in out
