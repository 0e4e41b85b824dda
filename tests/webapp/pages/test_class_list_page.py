"""The class list through the pages (issue 29's remaining breaks, issue 25 item 2): the teacher
pastes names and gets one join link each (checked and logged like every Instructor action);
a learner opening their link is on the class list under the teacher's name for them; the class
view counts who on the list has not started. English and Chinese."""

from __future__ import annotations

import gradio as gr
import pytest
from lab_support import LAB

from gradebook import Submission, open_gradebook
from gradebook import identity as ids

PASSWORD = "correct horse battery staple"


def _request(lang: str = "en-US", query: bytes = b"", session: str = "teacher"):
    from starlette.requests import Request

    scope = {"type": "http", "method": "POST", "path": "/", "query_string": query,
             "headers": [(b"accept-language", lang.encode())], "client": ("198.51.100.9", 1)}
    return gr.Request(request=Request(scope), session_hash=session)


@pytest.fixture
def app(monkeypatch, tmp_path):
    from webapp.pages import instructor, sign_in
    from webapp.serving.ratelimit import FailureLimiter

    monkeypatch.setenv("LAB_INSTRUCTOR_PASSWORD", PASSWORD)
    monkeypatch.delenv("LAB_INSTRUCTORS", raising=False)
    monkeypatch.setenv("LAB_DATA_DIR", str(tmp_path))
    book = open_gradebook(f"sqlite:///{tmp_path / 'gb.sqlite3'}")
    old_book = LAB.submitter.use_gradebook(book)
    serving = LAB.serving
    monkeypatch.setattr(serving, "password_tries", FailureLimiter(per_client=50, client_window_s=600))
    monkeypatch.setattr(serving, "recovery_tries", FailureLimiter(per_client=5, client_window_s=600))
    with gr.Blocks() as blocks:
        notice = gr.Markdown()
        instructor.build(LAB, sign_in.build(LAB, notice))
    fns = {f.name: f for f in blocks.fns.values()}
    yield fns, book
    LAB.submitter.use_gradebook(old_book)
    book.close()


URL = "https://school.example/lab/?tab=basics"


def test_a_wrong_password_adds_nobody(app):
    fns, book = app
    links, table, said = fns["on_roster_add"].fn("wrong password", "Ada\nBo", False, None, URL,
                                          _request(), None)
    assert links["visible"] is False and table["visible"] is False and "⚠️" in said
    assert book.members() == []


@pytest.mark.parametrize("lang,done,line", [("en-US", "2 added", "Line 3"),
                                            ("zh-CN", "新加入 2 人", "第 3 行")])
def test_the_teacher_gets_one_link_per_name_and_the_same_links_again(app, lang, done, line):
    fns, book = app
    links, table, said = fns["on_roster_add"].fn(PASSWORD, "Ada Lovelace\n陈静\tgroup 2\nada lovelace\n",
                                          False, None, URL, _request(lang), None)
    assert done in said and line in said  # the repeated name is named, with its line
    rows = [r.split("\t") for r in links["value"].splitlines()]
    assert [r[0] for r in rows] == ["Ada Lovelace", "陈静"]
    assert all(r[1].startswith("https://school.example/lab/?join=") for r in rows)
    assert "tab=" not in links["value"]  # only the join key: the teacher's own page stays out
    assert len(table["value"]) == 2
    again, _, _ = fns["on_roster_add"].fn(PASSWORD, "陈静", False, None, URL, _request(lang), None)
    assert again["value"] == "\t".join(rows[1])  # pasting again shows the same link
    shown = fns["on_roster_show"].fn(PASSWORD, None, URL, _request(lang), None)
    assert len(shown[1]["value"]) == 2 and links["value"] == shown[0]["value"]
    assert {e.detail for e in book.access_log()} >= {"names 2 (0 renewed)", "class list"}


def _join(fns, link: str, lang: str = "en-US", session: str = "learner"):
    query = link.split("?", 1)[1].encode()
    key = ids.new_browser_key()
    return key, fns["on_load"].fn("", key, "", _request(lang, query, session))


@pytest.mark.parametrize("lang,word", [("en-US", "class list"), ("zh-CN", "班级名单")])
def test_a_learner_opening_their_link_is_on_the_class_list(app, lang, word):
    fns, book = app
    links, _, _ = fns["on_roster_add"].fn(PASSWORD, "Ada Lovelace", False, None, URL, _request(), None)
    key, (key_out, name, notice) = _join(fns, links["value"].split("\t")[1], lang)
    assert key_out == key and name == "Ada Lovelace"
    assert word in notice["value"] and "Ada Lovelace" in notice["value"]
    _, status = fns["on_status"].fn("whatever I type", key, _request(lang, session="learner"), None)
    assert word in status and "Ada Lovelace" in status
    assert book.members()[0].browsers == 1
    # The recovery buttons point a member at their class link (a new code would break it).
    from webapp.pages import progress

    with pytest.raises(ValueError, match="class"):
        progress.new_recovery_code(LAB, key, None, "en", "learner")


def test_a_stale_or_forged_link_says_so_and_joins_nobody(app):
    fns, book = app
    links, _, _ = fns["on_roster_add"].fn(PASSWORD, "Ada", False, None, URL, _request(), None)
    old = links["value"].split("\t")[1]
    fns["on_roster_add"].fn(PASSWORD, "Ada", True, None, URL, _request(), None)  # a new link for Ada
    for link in (old, URL.split("?")[0] + "?join=0000000000000000000Z",
                 URL.split("?")[0] + "?join=%5BSign%20in%5D(//ev.il/)"):
        key, (_, name, notice) = _join(fns, link)
        assert "not valid" in notice["value"] and "ev.il" not in notice["value"]
        assert book.linked_learner(ids.key_hash(key)) is None
    key, out = _join(fns, URL)  # no join link: nothing said, nothing joined
    assert out[2] == gr.skip()


def test_the_class_view_shows_who_on_the_list_has_not_started(app):
    fns, book = app
    from webapp.services import class_list
    from webapp.services import class_summary as data
    from webapp.views import class_grid as view

    issued, _ = class_list.add(book, ["Ada", "Bo", "Cy"])
    ada = issued[0].member
    book.record(Submission(learner="Ada", learner_id=ada.learner_id, exercise="causal-mask",
                           code="x = 1\n", score=1, max_score=2, tests=[]))
    book.record(Submission(learner="dan (guest)", learner_id="g:" + "d" * 20,
                           exercise="causal-mask", code="x = 1\n", score=2, max_score=2, tests=[]))
    summary = data.load(book, ["causal-mask"])
    assert [x.label for x in summary.learners] == ["Ada", "Bo", "Cy", "dan (guest)"]
    assert [x.label for x in summary.not_started] == ["Bo", "Cy"] and summary.listed == 3
    assert summary.totals[0].tried == 2  # nobody counted as trying who has not
    en = view.status_line(summary, "en")
    assert "2 learners" in en and "1 of 3 on the class list" in en and "Bo, Cy" in en
    assert "3 人中已有 1 人" in view.status_line(summary, "zh") and "Bo、Cy" in view.status_line(summary, "zh")
    grid = view.grid_html(summary, "en")
    assert grid.count("<tr data-learner=") == 4
