"""Issue 26, item 4, in chromium: 1e200 typed into Q showed "Something went wrong on our side";
now the status names the number and the limit, in the page's language, and the last good
tables stay."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright", reason="pip install playwright pytest-playwright")
from browser_support import needs_chromium  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

pytestmark = needs_chromium


def _type_huge_q(page, app_url) -> None:
    page.goto(app_url)
    page.locator("#basics-heatmap .js-plotly-plot").wait_for(timeout=60_000)
    page.locator("#basics-q textarea").fill("1e200 0 1 0\n0 1 0 1\n1 1 1 1")  # live: no button


@pytest.mark.browser_context_args(locale="en-US")
def test_a_huge_number_is_named_with_the_limit_in_english(page, app_url):
    _type_huge_q(page, app_url)
    status = page.locator("#basics-status")
    expect(status).to_contain_text("1e200 is too large", timeout=15_000)
    expect(status).to_contain_text("10000")
    expect(page.get_by_text("Something went wrong")).to_have_count(0)


@pytest.mark.browser_context_args(locale="zh-CN")
def test_a_huge_number_is_named_with_the_limit_in_chinese(page, app_url):
    _type_huge_q(page, app_url)
    status = page.locator("#basics-status")
    expect(status).to_contain_text("1e200 太大了", timeout=15_000)
    expect(page.get_by_text("Something went wrong")).to_have_count(0)
