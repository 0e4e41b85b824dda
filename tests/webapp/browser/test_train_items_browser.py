"""Issue 20, item 7, in both languages (en 1280 px, zh-CN 390 px): before a run the snapshot
slider reads 0 (it read 16 / 16 under "0 = before training"); no Gradio progress text ("0.2s
Training: step … 11.1%") beside the page's own status; Keep leaves the "Done" line in place and
the kept run's name gives its layers."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright", reason="pip install playwright pytest-playwright")
from browser_support import needs_chromium, open_page  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

pytestmark = needs_chromium

CASES = [("en-US", 1280, "Train", "Done"), ("zh-CN", 390, "训练", "完成")]


@pytest.mark.parametrize("locale,width,tab,done", CASES)
def test_the_train_page_reads_true_before_during_and_after_a_run(browser, app_url, locale,
                                                                    width, tab, done):
    page = open_page(browser, app_url, locale, width)
    page.get_by_role("tab", name=tab).click()
    snap = page.locator("#train-snap input[type=number]")
    expect(snap).to_have_value("0", timeout=20_000)  # the untrained model is what is shown
    page.locator("#train-steps input").fill("300")
    page.locator("#train-start").click()
    status = page.locator("#train-status")
    seen_progress = []
    for _ in range(40):  # while it trains: no Gradio progress text anywhere on the page
        text = page.evaluate("document.body.innerText")
        seen_progress += [line for line in text.splitlines() if "%" in line and "/" in line
                          and ("s " in line or "秒" in line)]
        if done in status.inner_text():
            break
        page.wait_for_timeout(500)
    expect(status).to_contain_text(done, timeout=120_000)
    assert not seen_progress, seen_progress[:3]
    page.locator("#train-keep").click()
    page.locator("#train-compare .js-plotly-plot").wait_for(timeout=30_000)
    expect(page.locator("#train-compare")).to_contain_text("L=", timeout=20_000)
    expect(status).to_contain_text(done)  # Keep left the "Done" line where it was
    page.context.close()
