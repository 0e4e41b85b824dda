"""A result stays with its exercise (chromium pass, 2026-12-02): a learner who switched to
exercise 4 while exercise 1 was graded got exercise 1's score and tests under exercise 4's
statement; Reset left the last run's table; My progress's Load drew the table headed "1 2 3"."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright", reason="pip install playwright pytest-playwright")
from browser_support import needs_chromium  # noqa: E402
from playwright.sync_api import expect  # noqa: E402
from test_drafts_browser import _choose  # noqa: E402

pytestmark = needs_chromium
SLOW = "import time\ntime.sleep(4)\nscores = 1\n"


def _type_code(page, text: str) -> None:
    page.locator("#ex-code .cm-content").click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(text)


def test_a_result_graded_after_switching_exercise_stays_with_its_exercise(browser, app_url):
    page = browser.new_context(locale="en-US").new_page()
    page.goto(app_url)
    page.get_by_role("tab", name="Exercises").click()
    expect(page.locator("#ex-code")).to_contain_text("def ", timeout=20_000)
    _type_code(page, SLOW)
    page.locator("#ex-submit").click()
    expect(page.locator("#ex-score")).to_contain_text(re.compile("Grading|queue"), timeout=20_000)
    _choose(page, 4)
    score = page.locator("#ex-score")
    expect(score).to_contain_text("was graded", timeout=60_000)
    expect(score).to_contain_text("1. ")  # names the exercise the result belongs to
    expect(score).not_to_contain_text("Score:")
    page.wait_for_timeout(1000)
    assert "Part A" not in page.locator("#ex-tests").inner_text()  # exercise 1's tests
    assert "queue:" not in score.inner_text() and "processing" not in score.inner_text()
    page.context.close()


def test_reset_and_load_leave_a_headed_empty_table(browser, app_url):
    page = browser.new_context(locale="zh-CN", viewport={"width": 390, "height": 844}).new_page()
    page.goto(app_url)
    page.get_by_role("tab", name="练习").click()
    expect(page.locator("#ex-code")).to_contain_text("def ", timeout=20_000)
    page.locator("#ex-submit").click()
    expect(page.locator("#ex-score")).to_contain_text("得分", timeout=60_000)
    tests = page.locator("#ex-tests")
    expect(tests).to_contain_text("A 部分", timeout=20_000)
    page.get_by_role("button", name="恢复初始代码").click()
    expect(tests).not_to_contain_text("A 部分", timeout=20_000)
    expect(tests).to_contain_text("测试")  # the headers stay, in the page's language
    page.get_by_role("tab", name="我的进度").click()
    history = page.locator("#progress-history")
    expect(history).to_contain_text("1.", timeout=20_000)
    number = re.search(r"\n(\d+)\n1\. ", history.inner_text()).group(1)  # the row's number
    page.locator("#progress-pick input, #progress-pick textarea").first.fill(number)
    page.locator("#progress-load").click()
    expect(page.locator("#ex-choose input")).to_have_value(re.compile(r"^1\. "), timeout=20_000)
    expect(tests).to_contain_text("测试", timeout=20_000)
    assert not re.search(r"^\s*1\s+2\s+3", tests.inner_text())
    page.context.close()
