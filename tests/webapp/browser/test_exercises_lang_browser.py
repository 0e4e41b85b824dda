"""Walk-through issues 3 and 5 in chromium: the Exercises page is in one language, the
browser's (statement included, on first load)."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright", reason="pip install playwright pytest-playwright")
from browser_support import needs_chromium  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

pytestmark = needs_chromium
CJK = re.compile("[\u4e00-\u9fff]")


def _exercises(page, url: str, tab: str) -> None:
    page.goto(url)
    page.get_by_role("tab", name=tab).click()
    page.locator("#ex-q0-go").wait_for(timeout=30_000)


def test_chinese_browser_gets_a_chinese_statement_and_labels(browser, app_url):
    page = browser.new_context(locale="zh-CN", viewport={"width": 1200, "height": 1000}).new_page()
    _exercises(page, app_url, "练习")
    expect(page.locator("#ex-statement")).to_contain_text("手算注意力", timeout=20_000)  # zh statement
    expect(page.locator("#ex-lang input:checked")).to_have_value("zh")
    expect(page.locator("#ex-choose input")).to_have_value(re.compile("^1\\. 手算注意力$"), timeout=20_000)
    go = page.locator("#ex-q0-go").inner_text()
    assert CJK.search(go) and "Check" not in go
    page.locator("#ex-lang label", has_text="English").click()  # the toggle still works
    expect(page.locator("#ex-statement")).to_contain_text("attention by hand", timeout=20_000)
    page.context.close()


def test_english_browser_gets_english_only(page, app_url):
    _exercises(page, app_url, "Exercises")
    expect(page.locator("#ex-statement")).to_contain_text("attention by hand", timeout=20_000)
    expect(page.locator("#ex-choose input")).to_have_value("1. Attention by hand", timeout=20_000)
    assert page.locator("#ex-q0-go").inner_text().strip() == "Check / reveal"
    options = page.locator("#ex-choose input")
    options.click()
    labels = page.get_by_role("option").all_inner_texts()
    assert labels and not any(CJK.search(x) or "·" in x for x in labels), labels
    page.keyboard.press("Escape")
