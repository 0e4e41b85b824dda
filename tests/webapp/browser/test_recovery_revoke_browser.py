"""Issue 19, F4, in Debian's chromium: revocation revokes. Each browser context is a separate
browser (its own localStorage): A owns the history, B links with A's recovery code, A shows a
new code, and B no longer sees A's submissions or their code, while C, with the old code, is
refused; then "Sign out other browsers" ends C's link made with the new code, and A keeps
everything. Before, B kept reading A's new submissions after A's new code."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright", reason="pip install playwright pytest-playwright")
from browser_support import ARTIFACTS, needs_chromium  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

from gradebook import identity as ids  # noqa: E402

pytestmark = needs_chromium
BEFORE, AFTER = ("manual-attention", "1. Attention by hand"), ("causal-mask", "5. Causal (look-ahead) mask")
WAIT = 20_000


@pytest.fixture
def new_browser(browser, browser_context_args):
    """Fresh browser contexts (separate localStorage each), closed after the test."""
    made = []

    def make(locale: str = "en-US"):
        context = browser.new_context(**{**browser_context_args, "locale": locale})
        made.append(context)
        page = context.new_page()
        return page

    yield make
    for context in made:
        context.close()


def _open(page, app_url: str, tab: str = "My progress", section: str = "Continue in another browser"):
    """The app opened on My progress with its recovery section unfolded."""
    page.goto(app_url)
    expect(page.locator("#who-status")).not_to_be_empty(timeout=WAIT)
    _progress(page, tab, section)


def _progress(page, tab: str = "My progress", section: str = "Continue in another browser"):
    page.get_by_role("tab", name=tab).click()
    page.locator("#progress-refresh").click()
    if not page.locator("#recovery-new").is_visible():
        page.locator("#progress-recovery").get_by_text(section).click()
    expect(page.locator("#recovery-new")).to_be_visible(timeout=WAIT)


def _new_code(page) -> str:
    box = page.locator("#recovery-code textarea, #recovery-code input").first
    before = box.input_value()
    page.locator("#recovery-new").click()
    expect(box).to_have_value(re.compile(r"^[0-9A-Z]{5}(-[0-9A-Z]{5}){3}$"), timeout=WAIT)
    expect(box).not_to_have_value(before, timeout=WAIT)
    return box.input_value()


def _use(page, code: str) -> None:
    page.locator("#recovery-enter textarea, #recovery-enter input").first.fill(code)
    page.locator("#recovery-use").click()


def _refreshed_history(page):
    page.locator("#progress-refresh").click()
    page.wait_for_timeout(800)  # the refresh replaces the table; then read it
    return page.locator("#progress-history")


def _load(page, sub_id: int) -> None:
    pick = page.locator("#progress-pick textarea, #progress-pick input").first
    pick.fill(str(sub_id))
    page.locator("#progress-load").click()


def _submit(book, learner_id: str, exercise: str, marker: str) -> int:
    from gradebook import Submission

    return book.record(Submission(learner="ada (guest)", learner_id=learner_id, exercise=exercise,
                                  code=f"# {marker}\n", score=1.0, max_score=4.0, tests=[]))


def test_a_new_code_and_sign_out_end_the_other_browsers_links(new_browser, app_url, app_gradebook):
    book = app_gradebook
    a, b, c = new_browser(), new_browser(), new_browser()

    # A shows a code; its learner id is the one the code belongs to (A typed no name).
    _open(a, app_url)
    old = _new_code(a)
    ((me,),) = book._query("SELECT learner_id FROM recovery_codes")
    first = _submit(book, me, BEFORE[0], "before 4411")

    # B links with the code and reads A's work.
    _open(b, app_url)
    _use(b, old)
    expect(b.locator("#recovery-status")).to_contain_text("continues your work", timeout=WAIT)
    expect(b.locator("#progress-history")).to_contain_text(BEFORE[1], timeout=WAIT)
    # ... under A's name (issue 20, item 1: B's label box stayed empty, its rows "anonymous")
    expect(b.locator("#who-name input, #who-name textarea").first).to_have_value("ada",
                                                                                 timeout=WAIT)

    # A shows a new code: B is signed out, and sees neither the old nor the new submission.
    new = _new_code(a)
    later = _submit(book, me, AFTER[0], "after 4412")
    expect(_refreshed_history(a)).to_contain_text(AFTER[1], timeout=WAIT)
    history = _refreshed_history(b)
    expect(history).not_to_contain_text(BEFORE[1])
    expect(history).not_to_contain_text(AFTER[1])
    expect(b.locator("#progress-best")).not_to_contain_text(AFTER[1])
    for sub_id in (first, later):
        _load(b, sub_id)
        expect(b.locator("#progress-status")).to_contain_text("not in your history", timeout=WAIT)
    b.get_by_role("tab", name="Exercises").click()
    expect(b.locator("#ex-code")).not_to_contain_text("4411")
    expect(b.locator("#ex-code")).not_to_contain_text("4412")
    b.reload()  # nothing of the link is left in B's own storage either
    expect(b.locator("#who-status")).not_to_be_empty(timeout=WAIT)
    _progress(b)
    expect(_refreshed_history(b)).not_to_contain_text(AFTER[1])

    # C, with the old code, is refused; with the new one it is in.
    _open(c, app_url)
    _use(c, old)
    expect(c.locator("#recovery-status")).to_contain_text("not valid", timeout=WAIT)
    expect(_refreshed_history(c)).not_to_contain_text(AFTER[1])
    _use(c, new)
    expect(c.locator("#progress-history")).to_contain_text(AFTER[1], timeout=WAIT)

    # "Sign out other browsers" on A: C is out, A keeps everything, and the code still works.
    a.locator("#recovery-sign-out").click()
    expect(a.locator("#recovery-status")).to_contain_text("Other browsers signed out: 1",
                                                          timeout=WAIT)
    history = _refreshed_history(c)
    expect(history).not_to_contain_text(AFTER[1])
    expect(history).not_to_contain_text(BEFORE[1])
    _load(c, later)
    expect(c.locator("#progress-status")).to_contain_text("not in your history", timeout=WAIT)
    history = _refreshed_history(a)
    expect(history).to_contain_text(AFTER[1], timeout=WAIT)
    expect(history).to_contain_text(BEFORE[1], timeout=WAIT)
    a.locator("#recovery-sign-out").click()
    expect(a.locator("#recovery-status")).to_contain_text("No other browser", timeout=WAIT)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    a.screenshot(path=str(ARTIFACTS / "recovery-sign-out-en.png"), full_page=True)
    assert book.recovered_learner(ids.recovery_hash(new)) == me


def test_the_sign_out_button_speaks_chinese(new_browser, app_url, app_gradebook):
    page = new_browser("zh-CN")
    _open(page, app_url, tab="我的进度", section="在其他浏览器中继续")
    expect(page.locator("#recovery-sign-out")).to_have_text("让其他浏览器退出")
    page.locator("#recovery-sign-out").click()
    expect(page.locator("#recovery-status")).to_contain_text("没有其他浏览器在使用你的恢复码",
                                                             timeout=WAIT)
