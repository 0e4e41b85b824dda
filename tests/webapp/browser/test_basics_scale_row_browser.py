"""Issue 26, item 5, in chromium: unticking "Divide by √d" on the lesson's example left q0 at
[5, 6, 7, 8] with nothing said; the caption now names the row that moves (q2) and says q0
cannot tell, in both languages."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright", reason="pip install playwright pytest-playwright")
from browser_support import needs_chromium  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

pytestmark = needs_chromium


def _untick(page, app_url):
    page.goto(app_url)
    page.locator("#basics-heatmap .js-plotly-plot").wait_for(timeout=60_000)
    page.locator("#basics-scale input").uncheck()


@pytest.mark.browser_context_args(locale="en-US")
def test_unticking_the_scale_points_at_the_row_that_moves(page, app_url):
    _untick(page, app_url)
    caption = page.locator("#basics-caption")
    expect(caption).to_contain_text("is off", timeout=15_000)
    expect(caption).to_contain_text("moves output row q2 most")
    expect(caption).to_contain_text("Row q0 keeps the same output")


@pytest.mark.browser_context_args(locale="zh-CN")
def test_unticking_the_scale_points_at_the_row_that_moves_in_chinese(page, app_url):
    _untick(page, app_url)
    caption = page.locator("#basics-caption")
    expect(caption).to_contain_text("已取消", timeout=15_000)
    expect(caption).to_contain_text("输出变化最大的是 q2 这一行")
