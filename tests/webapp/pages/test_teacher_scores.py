"""Issue 25, item 8: a teacher's score in place of the graded best, set under the learner's
page in the class view (checked and logged like a comment), shown in the grid with the graded
score kept, in the learner's page, and on the learner's own My progress, in both languages."""

from __future__ import annotations

import gradio as gr
import pytest
from lab_support import LAB

from gradebook import Submission
from gradebook import identity as ids
from tests.webapp.pages.test_teacher_comments import PASSWORD, _request
from tests.webapp.pages.test_teacher_comments import app as app  # noqa: F401 - the fixture


def _learner(book, score=6.0):
    key = ids.new_browser_key()
    me = ids.guest_id(key)
    for s in (3.0, score):
        book.record(Submission(learner="Ada (guest)", learner_id=me, exercise="manual-attention",
                               code="x = 1\n", score=s, max_score=12, tests=[]))
    return key, me


@pytest.mark.parametrize("lang,heading,graded", [("en-US", "Scores set by your teacher", "graded: 6"),
                                                 ("zh-CN", "老师设定的分数", "自动评分：6")])
def test_a_teachers_score_reaches_the_grid_the_learner_page_and_my_progress(app, lang, heading,
                                                                            graded):
    from webapp.services import class_summary as data
    from webapp.views import class_grid as view

    fns, book = app
    key, me = _learner(book)
    give = fns["on_score"].fn
    # Not signed in, or a wrong password: nothing stored.
    assert give(PASSWORD, f"id:{me}", "manual-attention", 11, "", None, False, 0, _request(),
                None) == (gr.skip(), gr.skip())
    give("wrong password", f"id:{me}", "manual-attention", 11, "", None, True, 0, _request(), None)
    assert book.score_overrides() == {}
    page, box = give(PASSWORD, f"id:{me}", "manual-attention", 11, "Right idea, one slip.", None,
                     True, 0, _request(lang), None)
    assert box == "" and "lp-scores" in page and "11/12" in page and "Right idea" in page
    assert book.score_overrides(me)[(me, "manual-attention")].score == 11.0
    assert book.access_log(1)[0].action == "score"
    summary = data.load(book, ["manual-attention"])
    cell = summary.cell(summary.learners[0], "manual-attention")
    assert (cell.best, cell.graded, cell.attempts) == (11.0, 6.0, 2)
    grid = view.grid_html(summary, lang[:2])
    assert "<b>11/12</b>" in grid and "cv-set" in grid and graded in grid
    best, history, status = fns["on_refresh"].fn("", key, _request(lang, session="ada"), None)
    # Markdown-literal text, as the comments: the note shows as typed
    assert heading in status and "11\\/12" in status and "Right idea\\, one slip\\." in status
    assert 11.0 in list(best.iloc[:, 1])  # the best-score table reads the teacher's score
    # A classmate reads nothing of it; back to the graded score on request.
    assert heading not in fns["on_refresh"].fn("", ids.new_browser_key(),
                                               _request(lang, session="bo"), None)[2]
    page, _ = fns["on_score_clear"].fn(PASSWORD, f"id:{me}", "manual-attention", None, "", None,
                                       True, 0, _request(lang), None)
    assert "lp-scores" not in page and book.score_overrides() == {}
    assert book.best_scores(learner_id=me)[0].score == 6.0


def test_a_score_out_of_range_untried_or_unaddressed_is_refused_with_a_sentence(app):
    fns, book = app
    _, me = _learner(book)
    give = fns["on_score"].fn
    for learner, exercise, points, note in ((f"id:{me}", "manual-attention", 13, ""),
                                            (f"id:{me}", "manual-attention", -1, ""),
                                            (f"id:{me}", "manual-attention", None, ""),
                                            (f"id:{me}", "manual-attention", 5, "x" * 501),
                                            (f"id:{me}", "causal-mask", 5, ""),  # never tried
                                            (f"id:{me}", None, 5, ""),
                                            (None, "manual-attention", 5, "")):
        with pytest.warns(UserWarning):
            give(PASSWORD, learner, exercise, points, note, None, True, 0, _request(), None)
    assert book.score_overrides() == {}


def test_a_teachers_score_at_full_marks_counts_as_full_and_leaves_needs_help():
    from datetime import datetime, timedelta, timezone

    from gradebook.model import Attempt
    from webapp.services.class_summary import FULL, summarise

    now = datetime(2026, 9, 1, 10, tzinfo=timezone.utc)
    rows = [Attempt(i, "Ada (guest)", "g:ada", "causal-mask", 3.0, 12.0, "graded",
                    (now - timedelta(minutes=20 - i)).isoformat(), ("no-scale",), "", "")
            for i in range(1, 5)]
    stuck = summarise(rows, ["causal-mask"], now)
    assert [s.learner.key for s in stuck.stuck] == ["id:g:ada"] and stuck.totals[0].full == 0
    helped = summarise(rows, ["causal-mask"], now, overrides={("id:g:ada", "causal-mask"): (12.0, 12.0)})
    assert helped.stuck == [] and helped.totals[0].full == 1
    cell = helped.cells[("id:g:ada", "causal-mask")]
    assert cell.state == FULL and cell.graded == 3.0 and cell.best == 12.0


@pytest.mark.parametrize("lang,said", [("en-US", "Regraded"), ("zh-CN", "已重新评阅")])
def test_a_regrade_from_the_page_is_checked_logged_and_reported(app, monkeypatch, lang, said):
    from grader.report import Report
    from grader.report import TestResult as Result

    fns, book = app
    _, me = _learner(book)
    monkeypatch.setattr(LAB.submitter, "grade", lambda ex, code, label, key=None: Report(
        ex, [Result("weights", 12.0, 12.0, True, {"en": "", "zh": ""})]))
    run = fns["on_regrade"].fn
    assert list(run(PASSWORD, "manual-attention", None, False, _request(lang), None)) == [gr.skip()]
    with pytest.warns(UserWarning):
        assert list(run("wrong", "manual-attention", None, True, _request(lang), None)) == [gr.skip()]
    with pytest.warns(UserWarning):
        list(run(PASSWORD, "no-such-exercise", None, True, _request(lang), None))
    assert book.regrades() == []
    # Graded by today's tests: nothing to do, and it says so.
    nothing = list(run(PASSWORD, "manual-attention", None, True, _request(lang), None))[-1]
    assert ("Nothing to regrade" if lang == "en-US" else "无需重新评阅") in nothing
    book._execute("UPDATE submissions SET grader_version = 'before the tests changed'")
    said_last = list(run(PASSWORD, "manual-attention", None, True, _request(lang), None))[-1]
    assert said in said_last and "2" in said_last
    assert book.access_log(1)[0].action == "regrade"
    assert [b.score for b in book.best_scores(learner_id=me)] == [12.0]
    assert sorted(r.old_score for r in book.regrades(me)) == [3.0, 6.0]
    from webapp.services import learner_page
    from webapp.views import learner_page as view

    page = view.page_html(learner_page.load(book, f"id:{me}"), lang[:2])
    stop = fns["on_regrade_stop"].fn
    assert stop(PASSWORD, None, True, _request(lang), None) == \
        ("No regrade is running." if lang == "en-US" else "当前没有正在进行的重新评阅。")
    assert ("regraded (was 6/12)" if lang == "en-US" else "已重新评分（原为 6/12）") in page


def test_a_notes_indented_line_is_not_a_code_block_on_my_progress(app):
    """Red team, 2026-12-07: a note line starting with four spaces showed as a code block."""
    from webapp.pages import progress

    _, book = app
    _, me = _learner(book)
    book.set_score(me, "manual-attention", 10, 12, "first line\n    indented *line*", "t")
    lines = progress.scores_lines(book, me, "en")
    assert lines[-1].endswith("first line  \n  indented \\*line\\*"), lines
