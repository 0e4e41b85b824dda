"""Issue 26, item 8: Stop was bright red and clickable before any run and after one ended.
It is live only while a run trains or waits."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright", reason="pip install playwright pytest-playwright")
from browser_support import needs_chromium  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

pytestmark = needs_chromium


@pytest.mark.browser_context_args(locale="en-US")
def test_stop_is_live_only_while_a_run_trains(page, app_url):
    page.goto(app_url)
    page.get_by_role("tab", name="Train").click()
    stop = page.locator("#train-stop")
    expect(stop).to_be_disabled(timeout=30_000)  # nothing to stop yet
    page.locator("#train-steps input").fill("3000")
    page.locator("#train-start").click()
    expect(stop).to_be_enabled(timeout=10_000)
    # Stop acts on a run that has begun (a click before the run registers is not kept: as before)
    expect(page.locator("#train-status")).to_contain_text("step", timeout=60_000)
    stop.click()
    expect(page.locator("#train-status")).to_contain_text("stopped by you", timeout=120_000)
    expect(stop).to_be_disabled(timeout=15_000)  # the run ended: nothing to stop again
