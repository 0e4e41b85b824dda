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
