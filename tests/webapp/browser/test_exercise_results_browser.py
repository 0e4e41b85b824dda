"""Issue 20 (items 2, 3 and 10), in both languages at 1280 and 390 px: results go with their
exercise (choosing another clears the table and its heading, headers kept), a practice run of
the public examples says it is neither graded nor recorded instead of looking like a score, and
the starter's comments are in the page's language."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright", reason="pip install playwright pytest-playwright")
from browser_support import needs_chromium, open_page  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

pytestmark = needs_chromium

CASES = [("en-US", 1280, "Exercises", "Practice run", "not recorded", "Score", "test", "✗",
          "Part A: replace the zeros"),
         ("zh-CN", 390, "练习", "练习运行", "不记录", "得分", "测试", "未通过", "A 部分：把这些 0 换成")]


def _choose(page, number: int) -> None:
    box = page.locator("#ex-choose input")
    box.click()
    page.get_by_role("option").filter(has_text=re.compile(rf"(^|\s){number}\. ")).first.click()
    expect(box).to_have_value(re.compile(rf"^{number}\. "), timeout=20_000)


@pytest.mark.parametrize("locale,width,tab,practice,unrecorded,score,header,failed,comment", CASES)
def test_practice_runs_say_so_and_results_go_with_their_exercise(
        browser, app_url, locale, width, tab, practice, unrecorded, score, header, failed, comment):
    page = open_page(browser, app_url, locale, width)
    page.get_by_role("tab", name=tab).click()
    expect(page.locator("#ex-code")).to_contain_text("def ", timeout=20_000)
    expect(page.locator("#ex-code")).to_contain_text(comment, timeout=20_000)  # starter's language
    page.locator("#ex-examples").click()
    result = page.locator("#ex-score")
    expect(result).to_contain_text(practice, timeout=60_000)
    expect(result).to_contain_text(unrecorded)
    assert score not in result.inner_text()  # a practice run never reads like a graded score
    table = page.locator("#ex-tests")
    expect(table).to_contain_text(failed)  # the starter's examples fail
    _choose(page, 2)
    expect(table).not_to_contain_text(failed, timeout=20_000)  # exercise 1's rows are gone
    expect(table).to_contain_text(header)  # the headers stay (not "1 2 3")
    expect(result).to_have_text("", timeout=10_000)
    page.context.close()
