"""A learner's unsaved code is never thrown away (new-learner pass, 2026-11-30): switching
exercises and back, or reloading the page, brings the draft back; Reset is the only way to
the starter."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright", reason="pip install playwright pytest-playwright")
from browser_support import needs_chromium  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

pytestmark = needs_chromium

DRAFT = "# my draft 4711: half an answer"


def _choose(page, number: int) -> None:
    box = page.locator("#ex-choose input")
    box.click()
    page.get_by_role("option").filter(has_text=re.compile(rf"(^|\s){number}\. ")).first.click()
    expect(box).to_have_value(re.compile(rf"^{number}\. "), timeout=20_000)


def test_a_draft_survives_switching_exercises_and_a_reload(browser, app_url):
    page = browser.new_context(locale="en-US").new_page()
    page.goto(app_url)
    page.get_by_role("tab", name="Exercises").click()
    expect(page.locator("#ex-code")).to_contain_text("def ", timeout=20_000)  # the starter
    editor = page.locator("#ex-code .cm-content")
    editor.click()
    page.keyboard.press("Control+Home")  # at the top: CodeMirror renders only visible lines
    page.keyboard.insert_text(f"{DRAFT}\n")
    expect(page.locator("#ex-code")).to_contain_text("4711")
    _choose(page, 5)  # another exercise: its own starter, not the draft
    expect(page.locator("#ex-code")).not_to_contain_text("4711", timeout=20_000)
    _choose(page, 1)  # back: the draft, not the starter
    expect(page.locator("#ex-code")).to_contain_text("4711", timeout=20_000)
    page.locator("#ex-code .cm-content").click()
    page.locator("#ex-statement").click()  # leaving the editor keeps the draft in the browser
    page.wait_for_timeout(1500)
    page.reload()
    page.get_by_role("tab", name="Exercises").click()
    expect(page.locator("#ex-choose input")).to_have_value(re.compile(r"^1\. "), timeout=20_000)
    expect(page.locator("#ex-code")).to_contain_text("4711", timeout=20_000)
    page.get_by_role("button", name="Reset to starter").click()
    expect(page.locator("#ex-code")).not_to_contain_text("4711", timeout=20_000)
    page.context.close()


def test_my_progress_is_fresh_when_opened_after_a_submission(browser, app_url):
    """New-learner pass: after submitting, My progress showed empty tables headed "1 2 3" until
    Refresh was pressed. Opening the tab now refreshes it."""
    page = browser.new_context(locale="en-US").new_page()
    page.goto(app_url)
    page.get_by_role("tab", name="Exercises").click()
    expect(page.locator("#ex-code")).to_contain_text("def ", timeout=20_000)
    page.locator("#ex-submit").click()  # the starter: graded (0 points) and stored
    expect(page.locator("#ex-score")).to_contain_text("Score", timeout=60_000)
    page.get_by_role("tab", name="My progress").click()  # no Refresh pressed
    expect(page.locator("#progress-history")).to_contain_text("1. Attention by hand",
                                                              timeout=20_000)
    page.context.close()


@pytest.mark.parametrize(("locale", "tab", "again"), [
    ("en-US", "Exercises", "Your last submission to this exercise"),
    ("zh-CN", "练习", "这是你上次提交此练习的结果")])
def test_a_reload_returns_to_the_open_exercise_with_its_draft_and_last_result(
        browser, app_url, locale, tab, again):
    """Issue 20's leftover: a reload went back to exercise 1 and showed no result, so a learner
    in the middle of exercise 3 lost their place (and thought their submission was lost)."""
    page = browser.new_context(locale=locale).new_page()
    page.goto(app_url)
    page.get_by_role("tab", name=tab).click()
    expect(page.locator("#ex-code")).to_contain_text("def ", timeout=20_000)
    _choose(page, 3)
    statement = page.locator("#ex-statement")
    expect(statement).not_to_have_text("", timeout=20_000)
    page.wait_for_timeout(1000)
    shown = statement.inner_text()
    page.locator("#ex-submit").click()  # the starter: graded and stored
    expect(page.locator("#ex-score")).to_contain_text(re.compile(r"Score|得分"), timeout=60_000)
    score = page.locator("#ex-score h2").inner_text()
    page.wait_for_timeout(500)
    table = page.locator("#ex-tests").inner_text()
    editor = page.locator("#ex-code .cm-content")
    editor.click()
    page.keyboard.press("Control+Home")
    page.keyboard.insert_text(f"{DRAFT}\n")
    page.locator("#ex-statement").click()  # leaving the editor keeps the draft
    page.wait_for_timeout(1500)
    page.reload()
    page.get_by_role("tab", name=tab).click()
    expect(page.locator("#ex-choose input")).to_have_value(re.compile(r"^3\. "), timeout=20_000)
    expect(page.locator("#ex-code")).to_contain_text("4711", timeout=20_000)
    expect(page.locator("#ex-score")).to_contain_text(again, timeout=20_000)
    expect(page.locator("#ex-score h2")).to_have_text(score)
    expect(page.locator("#ex-tests")).to_have_text(table, use_inner_text=True)  # every row again
    expect(statement).to_have_text(shown, timeout=20_000)  # exercise 3's statement, not 1's
    # Choosing another exercise then shows that one's starter, not the restored draft
    _choose(page, 1)
    expect(page.locator("#ex-code")).not_to_contain_text("4711", timeout=20_000)
    expect(page.locator("#ex-score")).not_to_contain_text(again, timeout=20_000)
    page.context.close()
