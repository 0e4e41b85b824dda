"""Issue 12 in chromium: once one learner has trained the page's defaults, a second learner
pressing Train on the defaults sees the curves within 2 s (a cache hit, streamed as usual)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

pytest.importorskip("playwright", reason="pip install playwright pytest-playwright")
from browser_support import needs_chromium  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parents[3] / "artifacts" / "app"
pytestmark = needs_chromium
# The Train page's defaults, as its components send them (webapp/train/page.py build()).
DEFAULTS = dict(task="reverse", heads=4, d_model=32, layers=1, d_ff=64, dropout=0.0,
                pe="sinusoidal", steps=600, device="cpu", seed=0, model="transformer")


def test_second_learner_sees_cached_default_curves_within_2s(client, page):
    first = client.predict(**DEFAULTS, api_name="/train")  # the first learner trains for real
    assert first["summary"]["steps"] > 0
    page.goto(client.src if hasattr(client, "src") else client.url)
    # A learner lands on the first page, whose live figures load plotly's code (on demand,
    # ~1.6 s); the Train page is opened afterwards.
    page.locator(".js-plotly-plot").first.wait_for(timeout=30_000)
    page.get_by_role("tab", name="Train").click()
    page.locator("#train-start").wait_for()
    t0 = time.monotonic()
    page.locator("#train-start").click()
    expect(page.locator("#train-status")).to_contain_text("Training", timeout=10_000)
    expect(page.locator("#train-status")).to_contain_text("From the cache", timeout=10_000)
    page.locator("#train-curves .js-plotly-plot").wait_for(timeout=10_000)
    seen_s = time.monotonic() - t0
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "train-cache-hit.png"), full_page=True)
    assert seen_s <= 2.0, f"curves appeared after {seen_s:.2f} s"
    status = page.locator("#train-status").inner_text()
    assert f"Done: {first['summary']['steps']} steps" in status or str(first["summary"]["steps"]) in status
