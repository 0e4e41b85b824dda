"""Issue 25, item 8: a teacher's comment to a learner, written under the learner's page in the
class view (checked and logged like every instructor action), read by the learner on My
progress as plain text (no Markdown of the teacher's, in either language)."""

from __future__ import annotations

import gradio as gr
import pytest
from lab_support import LAB

from gradebook import Submission, open_gradebook
from gradebook import identity as ids

PASSWORD = "correct horse battery staple"


def _request(lang: str = "en-US", session: str = "teacher"):
    from starlette.requests import Request

    scope = {"type": "http", "method": "POST", "path": "/", "query_string": b"",
             "headers": [(b"accept-language", lang.encode())], "client": ("198.51.100.9", 1)}
    return gr.Request(request=Request(scope), session_hash=session)


@pytest.fixture
def app(monkeypatch, tmp_path):
    from webapp.pages import instructor, progress, sign_in
    from webapp.serving.ratelimit import FailureLimiter

    monkeypatch.setenv("LAB_INSTRUCTOR_PASSWORD", PASSWORD)
    monkeypatch.delenv("LAB_INSTRUCTORS", raising=False)
    monkeypatch.setenv("LAB_DATA_DIR", str(tmp_path))
    book = open_gradebook(f"sqlite:///{tmp_path / 'gb.sqlite3'}")
    old = LAB.submitter.use_gradebook(book)
    monkeypatch.setattr(LAB.serving, "password_tries",
                        FailureLimiter(per_client=50, client_window_s=600))
    with gr.Blocks() as blocks:
        who = sign_in.build(LAB)
        with gr.Tabs():
            with gr.Tab("progress"):
                progress.build(LAB, who)
            with gr.Tab("instructor"):
                instructor.build(LAB, who)
    fns = {f.name: f for f in blocks.fns.values()}
    yield fns, book
    LAB.submitter.use_gradebook(old)
    book.close()


@pytest.mark.parametrize("lang,heading", [("en-US", "From your teacher"), ("zh-CN", "老师的评语")])
def test_a_comment_reaches_the_learner_and_only_from_the_instructor(app, lang, heading):
    fns, book = app
    key = ids.new_browser_key()
    me = ids.guest_id(key)
    book.record(Submission(learner="Ada (guest)", learner_id=me, exercise="manual-attention",
                           code="x = 1\n", score=6, max_score=12, tests=[]))
    send = fns["on_comment"].fn
    text = "Scale by 1/√d *before* the softmax: see [the lesson](http://ev.il)."
    # Not signed in, or a wrong password: nothing stored.
    assert send(PASSWORD, f"id:{me}", "", text, None, False, 0, _request(), None) == (
        gr.skip(), gr.skip())
    send("wrong password", f"id:{me}", "", text, None, True, 0, _request(), None)
    assert book.comments(me) == []
    page, box = send(PASSWORD, f"id:{me}", "manual-attention", text, None, True, 0,
                     _request(lang), None)
    assert box == "" and "lp-comments" in page and "*before*" in page  # escaped HTML, as typed
    assert [c.text for c in book.comments(me)] == [text]
    assert book.access_log(1)[0].action == "comment"
    best, history, status = fns["on_refresh"].fn("", key, _request(lang, session="ada"), None)
    assert heading in status and "\\*before\\*" in status and "\\[the lesson\\]" in status
    # Another learner reads nothing of it.
    other = ids.new_browser_key()
    assert heading not in fns["on_refresh"].fn("", other, _request(lang, session="bo"), None)[2]


def test_an_empty_or_unaddressed_comment_is_refused_with_a_sentence(app):
    fns, book = app
    send = fns["on_comment"].fn
    with pytest.warns(UserWarning):
        send(PASSWORD, None, "", "hello", None, True, 0, _request(), None)
    with pytest.warns(UserWarning):
        send(PASSWORD, "id:g:" + "0" * 20, "", "   ", None, True, 0, _request(), None)
    assert book.comments("g:" + "0" * 20) == []
