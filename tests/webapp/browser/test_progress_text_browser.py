"""Live events show no progress (show_progress="hidden"), yet Gradio 6.31 still writes their
"queue: 1/1 | 0.2s" / "processing | 0.1s" text into every output at opacity 0, where innerText
and screen readers read it, in English on a Chinese page. The app sends it to one hidden input
(app.build_demo): no caption or status line of a live page ever holds it."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright", reason="pip install playwright pytest-playwright")
from browser_support import needs_chromium  # noqa: E402

from webapp.i18n import tr  # noqa: E402

pytestmark = needs_chromium
WATCHED = ["#basics-caption", "#basics-status", "#pool-caption", "#pool-status", "#pe-status",
           "#cx-caption", "#cx-status", "#train-maps-caption"]
# Every text the watched outputs hold, at every change of the page.
WATCH = """(ids) => { window.__seen = [];
  new MutationObserver(() => { for (const id of ids) {
      const e = document.querySelector(id); if (e) window.__seen.push(e.innerText); } })
    .observe(document.body, {subtree: true, childList: true, characterData: true}); }"""


def test_live_pages_never_hold_gradios_english_progress_text(browser, app_url):
    page = browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 900}).new_page()
    page.add_init_script(f"document.addEventListener('DOMContentLoaded', () => ({WATCH})"
                         f"({WATCHED!r}))")
    page.goto(app_url)
    page.locator("#basics-heatmap .js-plotly-plot").wait_for(timeout=60_000)
    page.locator("#basics-scale input").uncheck()  # a live recompute
    page.wait_for_timeout(1500)
    for tab in ("tab.pooling", "tab.positional", "tab.complexity", "tab.train"):
        page.get_by_role("tab", name=tr(tab, "zh")).click()
        page.wait_for_timeout(2500)
    page.get_by_role("tab", name=tr("tab.positional", "zh")).click()
    page.locator("#pe-d input").fill("16")  # a live redraw of the positional table
    page.locator("#pe-d input").press("Enter")
    page.wait_for_timeout(2500)
    seen = page.evaluate("window.__seen")
    progress = [t for t in seen if re.search(r"queue:|processing", t)]
    assert len(seen) > 10 and not progress, progress[:3]
    page.context.close()
