"""The class list in Debian's chromium (issue 29's open breaks, issue 25 item 2): the teacher
(English, 1280 px) pastes two names and copies their join links; a learner (Chinese, 390 px,
a browser of their own) opens theirs and is told, in Chinese, that they are on the class list
under the teacher's name for them, which fills the name box; the teacher's class view then
counts who on the list has not started. A tampered link says it is not valid and joins nobody.

The app is the identity row, the lesson-link notice and the Instructor page with a password
set, in a small Blocks of its own (the shared test app has no instructor password)."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright", reason="pip install playwright pytest-playwright")
from browser_support import ARTIFACTS, free_port, needs_chromium  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

pytestmark = needs_chromium
PASSWORD = "correct horse battery staple"
WAIT = 20_000


@pytest.fixture(scope="module")
def page_app(tmp_path_factory):
    import gradio as gr

    import app
    from gradebook import open_gradebook
    from webapp.pages import instructor, sign_in
    from webapp.pages.common import I18N, t
    from webapp.serving.ratelimit import FailureLimiter

    path = tmp_path_factory.mktemp("roster") / "gb.sqlite3"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LAB_INSTRUCTOR_PASSWORD", PASSWORD)
        mp.delenv("LAB_INSTRUCTORS", raising=False)
        book = open_gradebook(f"sqlite:///{path}")
        old_book = app.LAB.submitter.use_gradebook(book)
        mp.setattr(app.LAB.serving, "password_tries",
                   FailureLimiter(per_client=500, client_window_s=600))
        with gr.Blocks() as demo:
            notice = gr.Markdown(elem_id="link-notice")
            who = sign_in.build(app.LAB, notice)
            with gr.Tabs():
                with gr.Tab(t("tab.progress"), id="progress"):
                    gr.Markdown("elsewhere")
                with gr.Tab(t("tab.instructor"), id="instructor") as tab:
                    instructor.build(app.LAB, who, tab)
        demo.queue()
        demo.launch(prevent_thread_lock=True, server_name="127.0.0.1", server_port=free_port(),
                    quiet=True, i18n=I18N)
        yield demo.local_url, book
        demo.close()
        app.LAB.submitter.use_gradebook(old_book)
        book.close()


def _context(browser, locale: str, width: int):
    return browser.new_context(locale=locale, viewport={"width": width, "height": 900})


def test_a_teacher_hands_out_links_and_a_learner_joins_by_theirs(browser, page_app):
    url, book = page_app
    teacher_ctx, learner_ctx = _context(browser, "en-US", 1280), _context(browser, "zh-CN", 390)
    try:
        teacher = teacher_ctx.new_page()
        teacher.goto(url)
        teacher.get_by_role("tab", name="Instructor").click()
        teacher.locator("#instructor-password input").fill(PASSWORD)
        teacher.locator("#instructor-open").click()
        expect(teacher.locator("#class-status")).to_contain_text("learners", timeout=WAIT)
        teacher.locator("#roster-box").get_by_text("Class list and join links").click()
        teacher.locator("#roster-names textarea").fill("Ada Lovelace\n陈静\n")
        teacher.locator("#roster-add").click()
        expect(teacher.locator("#roster-status")).to_contain_text("2 added", timeout=WAIT)
        links = teacher.locator("#roster-links textarea")
        teacher.wait_for_function(
            "() => (document.querySelector('#roster-links textarea') || {}).value?.includes('join=')",
            timeout=WAIT)
        rows = [line.split("\t") for line in links.input_value().splitlines()]
        assert [r[0] for r in rows] == ["Ada Lovelace", "陈静"]
        assert all(r[1].startswith(url.rstrip("/")) for r in rows)
        teacher.screenshot(path=str(ARTIFACTS / "class-list-teacher-en.png"), full_page=True)

        learner = learner_ctx.new_page()
        learner.goto(rows[1][1])
        expect(learner.locator("#link-notice")).to_contain_text("班级名单", timeout=WAIT)
        expect(learner.locator("#link-notice")).to_contain_text("陈静")
        expect(learner.locator("#who-name textarea, #who-name input").first).to_have_value("陈静", timeout=WAIT)
        expect(learner.locator("#who-status")).to_contain_text("班级名单", timeout=WAIT)
        assert learner.evaluate("document.documentElement.scrollWidth") <= 390 + 1
        learner.screenshot(path=str(ARTIFACTS / "class-list-learner-zh-390.png"), full_page=True)
        # The same browser reloaded without the link is still the member.
        learner.goto(url)
        expect(learner.locator("#who-status")).to_contain_text("陈静", timeout=WAIT)

        stranger_ctx = _context(browser, "en-US", 1280)
        stranger = stranger_ctx.new_page()
        stranger.goto(url.rstrip("/") + "/?join=%5BSign%20in%5D(//ev.il/)")
        expect(stranger.locator("#link-notice")).to_contain_text("not valid", timeout=WAIT)
        assert stranger.locator("#link-notice a").count() == 0
        stranger_ctx.close()

        teacher.locator("#class-refresh").click()
        expect(teacher.locator("#class-status")).to_contain_text("0 of 2 on the class list",
                                                                 timeout=WAIT)
        expect(teacher.locator("#class-status")).to_contain_text("Ada Lovelace, 陈静")
        assert teacher.locator("#cv-grid tbody tr").count() == 2
        teacher.locator("#roster-show").click()
        expect(teacher.locator("#roster-table")).to_contain_text("陈静", timeout=WAIT)
        assert [m.browsers for m in book.members()] == [0, 1]
    finally:
        teacher_ctx.close()
        learner_ctx.close()
