"""What a learner sees when pressing Submit (new-learner pass of issue 17, en 1280 / zh-CN 390):
every submission says it is being graded, also one that gets a worker at once (4 of 12 showed
nothing for 5 s); a second click while the first is graded is a second submission, not lost;
the results table is headed from the start (not "1 2 3")."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

pytest.importorskip("playwright", reason="pip install playwright pytest-playwright")
from browser_support import needs_chromium, open_page  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

pytestmark = needs_chromium
REFERENCE = Path(__file__).resolve().parents[3] / "hidden" / "manual-attention" / "reference.py"
WATCH = """() => { window.__seen = []; const box = document.querySelector('#ex-score');
  new MutationObserver(() => window.__seen.push(box.innerText)).observe(
    box, {subtree: true, childList: true, characterData: true}); }"""
CASES = [("en-US", 1280, "Exercises", "Grading your submission", "Score", "test"),
         ("zh-CN", 390, "练习", "正在评分你的提交", "得分", "测试")]


@pytest.mark.parametrize("locale,width,tab,grading,score,header", CASES)
def test_submit_says_grading_and_a_second_click_is_graded_too(
        browser, app_url, app_gradebook, locale, width, tab, grading, score, header):
    page = open_page(browser, app_url, locale, width)
    name = f"clicker {uuid.uuid4().hex[:6]}"
    page.locator("#who-name input, #who-name textarea").first.fill(name)
    page.locator("#who-name input, #who-name textarea").first.press("Enter")
    page.get_by_role("tab", name=tab).click()
    expect(page.locator("#ex-tests")).to_contain_text(header, timeout=20_000)  # not "1 2 3"
    editor = page.locator("#ex-code .cm-content")
    editor.click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(REFERENCE.read_text(encoding="utf-8"))
    page.evaluate(WATCH)
    page.locator("#ex-submit").dblclick()
    expect(page.locator("#ex-score")).to_contain_text(score, timeout=90_000)
    seen = page.evaluate("window.__seen")
    assert any(grading in text for text in seen), seen[:5]
    rows = []
    for _ in range(60):  # the second click's submission lands after the first
        rows = [r for r in app_gradebook.all_rows(include_code=False) if r.learner.startswith(name)]
        if len(rows) >= 2:
            break
        page.wait_for_timeout(500)
    assert len(rows) == 2, rows
    page.context.close()


@pytest.mark.parametrize("locale,tab,recorded", [("en-US", "Exercises", "Recorded as submission #"),
                                                 ("zh-CN", "练习", "已记录为第")])
def test_the_same_code_submitted_twice_reads_as_two_records(browser, app_url, locale, tab,
                                                            recorded):
    """The chromium walk of 2026-12-07: a second Submit of the same code showed exactly the same
    result, so the learner could not tell a new attempt had been recorded. The score line now
    says the submission's number."""
    import re

    page = open_page(browser, app_url, locale, 1280)
    page.get_by_role("tab", name=tab).click()
    score = page.locator("#ex-score")
    pattern = re.compile(r"#\s*(\d+)|第 (\d+) 号")

    def number() -> int:
        found = pattern.search(score.inner_text())
        return int(found.group(1) or found.group(2))

    page.locator("#ex-submit").click()
    expect(score).to_contain_text(recorded, timeout=90_000)
    first = number()
    page.locator("#ex-submit").click()  # the same code again
    page.wait_for_function("""(first) => { const m = document.querySelector('#ex-score')
        .innerText.match(/#\\s*(\\d+)|第 (\\d+) 号/); return m && +(m[1] || m[2]) !== first; }""",
                           arg=first, timeout=90_000)
    assert number() > first
    page.context.close()
