"""Issue 20, item 8: the Instructor page hides empty tables (an empty Dataframe is headed
"1 2 3"), says how long an export's link works, and takes the link away with a sentence when
the file is deleted (it stayed on the page and answered a raw 403 JSON)."""

from __future__ import annotations

import gradio as gr
import pytest
from lab_support import LAB

from gradebook import Submission, open_gradebook

PASSWORD = "correct horse battery staple"


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
    monkeypatch.setenv("LAB_DATA_DIR", str(tmp_path))
    book = open_gradebook(f"sqlite:///{tmp_path / 'gb.sqlite3'}")
    book.record(Submission(learner="alice (guest)", learner_id="g:" + "a" * 20,
                           exercise="causal-mask", code="x = 1\n", score=1, max_score=2, tests=[]))
    old_book = LAB.submitter.use_gradebook(book)
    monkeypatch.setattr(LAB.serving, "password_tries",
                        FailureLimiter(per_client=50, client_window_s=600))
    with gr.Blocks() as blocks:
        instructor.build(LAB, sign_in.build(LAB))
    fns = {f.name: f for f in blocks.fns.values()}
    table = next(b for b in blocks.blocks.values() if getattr(b, "elem_id", None) == "instructor-table")
    yield fns, table
    LAB.submitter.use_gradebook(old_book)
    book.close()


def test_empty_tables_are_hidden_until_they_hold_rows(page):
    fns, table = page
    assert table.visible is False  # not an empty grid headed "1 2 3"
    refused = fns["on_show_page"].fn("wrong password", None, _request(), None)
    assert all(u["visible"] is False for u in refused[:3])
    shown = fns["on_show_page"].fn(PASSWORD, None, _request(), None)
    assert shown[0]["visible"] is True and len(shown[0]["value"]) >= 1
    assert shown[2]["visible"] is True  # the access log


@pytest.mark.parametrize("lang,minutes,expired", [("en-US", "5 min", "has expired"),
                                                  ("zh-CN", "5 分钟", "已过期")])
def test_an_export_says_how_long_its_link_works_and_the_link_goes_with_the_file(
        page, lang, minutes, expired):
    fns, _ = page
    out = fns["on_export_page"].fn(PASSWORD, False, None, _request(lang), None)
    assert out[1]["visible"] is True and out[1]["value"].endswith(".csv")
    assert minutes in out[3]
    assert out[4].active is True  # the expiry timer runs
    csv, text, timer = fns["on_expire"].fn(_request(lang))
    assert csv["visible"] is False and csv["value"] is None
    assert expired in text and timer.active is False
