"""The app in Debian's chromium through Playwright: tabs, a graded submission, training, Chinese."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("playwright", reason="pip install playwright pytest-playwright")
from browser_support import needs_chromium  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parents[3] / "artifacts" / "app"
REPO = Path(__file__).resolve().parents[3]
pytestmark = needs_chromium


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def open_tab(page, name: str) -> None:
    page.get_by_role("tab", name=name).click()


def test_tabs_basics_and_multihead(page, app_url):
    page.goto(app_url)
    page.locator("#basics-compute").click()
    page.locator("#basics-heatmap .js-plotly-plot").wait_for(timeout=30_000)
    # The lesson's first weight row appears in the weights table.
    expect(page.locator("#basics-weights")).to_contain_text("0.4223", timeout=10_000)
    shot(page, "basics")
    open_tab(page, "Multi-head explorer")
    page.locator("#mh-heads input").fill("5")
    page.locator("#mh-compute").click()
    expect(page.locator("#mh-status")).to_contain_text("not divisible", timeout=20_000)
    page.locator("#mh-heads input").fill("4")
    page.locator("#mh-compute").click()
    page.locator("#mh-grid .js-plotly-plot").wait_for(timeout=30_000)
    shot(page, "multihead")


def test_submit_exercise_and_see_the_score(page, app_url):
    page.goto(app_url)
    open_tab(page, "Exercises")
    page.locator("#ex-submit").wait_for()
    first_id = page.locator("#ex-choose input").input_value()
    assert first_id  # the dropdown shows the first exercise's label
    page.locator("#ex-submit").click()  # the starter code: it runs, but scores less than full
    expect(page.locator("#ex-score")).to_contain_text("Score", timeout=60_000)
    expect(page.locator("#ex-tests")).to_contain_text("✗")
    shot(page, "exercise_score")


def test_train_tiny_model_shows_heatmap(page, app_url):
    page.goto(app_url)
    open_tab(page, "Train")
    page.locator("#train-steps input").fill("30")
    page.locator("#train-start").click()
    expect(page.locator("#train-status")).to_contain_text("Done", timeout=90_000)
    page.locator("#train-curves .js-plotly-plot").wait_for(timeout=30_000)
    page.locator("#train-maps .js-plotly-plot").wait_for(timeout=30_000)
    assert page.locator("#train-maps .heatmaplayer image, #train-maps g.hm image").count() > 0
    page.locator("#train-keep").click()  # kept runs are drawn together, one colour per run
    page.locator("#train-compare .js-plotly-plot").wait_for(timeout=30_000)
    expect(page.locator("#train-compare")).to_contain_text("reverse · pe=sinusoidal")
    shot(page, "train")


def test_stop_ends_a_long_run_early(page, app_url):
    page.goto(app_url)
    open_tab(page, "Train")
    page.locator("#train-steps input").fill("5000")
    page.locator("#train-start").click()
    page.locator("#train-curves .js-plotly-plot").wait_for(timeout=60_000)  # first streamed curves
    page.locator("#train-stop").click()
    expect(page.locator("#train-status")).to_contain_text("stopped by you", timeout=60_000)
    steps = int(page.locator("#train-status").inner_text().split("Done:")[1].split()[0])
    assert steps < 5000


@pytest.mark.browser_context_args(locale="zh-CN")
def test_chinese_interface(page, app_url):
    page.goto(app_url)
    page.get_by_role("tab", name="注意力基础").wait_for(timeout=30_000)
    open_tab(page, "位置编码")
    page.locator("#pe-show").click()
    page.locator("#pe-heatmap .js-plotly-plot").wait_for(timeout=30_000)
    expect(page.locator("#pe-heatmap")).to_contain_text("正弦位置编码")  # title drawn in Chinese
    shot(page, "zh_positional")


def test_readme_screenshots(page, app_url, browser):
    """Small PNGs of the main pages for the README (docs/screenshots/)."""
    if not os.environ.get("LAB_SCREENSHOTS"):
        pytest.skip("set LAB_SCREENSHOTS=1 to refresh docs/screenshots/")
    out = REPO / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 1200, "height": 1000})
    page.goto(app_url)
    page.locator("#basics-compute").click()
    page.locator("#basics-heatmap .js-plotly-plot").wait_for(timeout=30_000)
    page.wait_for_timeout(800)
    page.screenshot(path=str(out / "attention_basics.png"))
    for tab, button, plot, name in [
        ("Attention pooling", "#pool-compute", "#pool-fixed", "attention_pooling"),
        ("Multi-head explorer", "#mh-compute", "#mh-grid", "multihead"),
        ("Positional encoding", "#pe-show", "#pe-heatmap", "positional"),
        ("Complexity", "#cx-run", "#cx-plot", "complexity"),
    ]:
        open_tab(page, tab)
        page.locator(button).click()
        page.locator(f"{plot} .js-plotly-plot").wait_for(timeout=60_000)
        page.wait_for_timeout(800)
        page.locator(plot).scroll_into_view_if_needed()
        page.screenshot(path=str(out / f"{name}.png"))
    open_tab(page, "Train")
    page.locator("#train-steps input").fill("300")
    page.locator("#train-start").click()
    expect(page.locator("#train-status")).to_contain_text("Done", timeout=300_000)
    page.locator("#train-maps .js-plotly-plot").wait_for(timeout=30_000)
    page.wait_for_timeout(800)
    page.locator("#train-curves").scroll_into_view_if_needed()
    page.screenshot(path=str(out / "train.png"))
    open_tab(page, "Exercises")
    page.locator("#ex-submit").click()
    expect(page.locator("#ex-score")).to_contain_text("Score", timeout=60_000)
    page.locator("#ex-tests").scroll_into_view_if_needed()
    page.screenshot(path=str(out / "exercises.png"))
    # The same app for a Chinese browser, and on a phone (390 × 844).
    zh = browser.new_context(locale="zh-CN", viewport={"width": 1200, "height": 1000}).new_page()
    zh.goto(app_url)
    zh.locator("#basics-step-scores .js-plotly-plot").wait_for(timeout=60_000)
    zh.locator("#basics-steps").scroll_into_view_if_needed()
    zh.wait_for_timeout(800)
    zh.screenshot(path=str(out / "zh_attention_basics.png"))
    phone = browser.new_context(locale="en-US", viewport={"width": 390, "height": 844},
                                device_scale_factor=1).new_page()
    phone.goto(app_url)
    phone.locator("#basics-heatmap .js-plotly-plot").wait_for(timeout=60_000)
    phone.wait_for_timeout(800)
    phone.screenshot(path=str(out / "phone_attention_basics.png"))
    assert all(p.stat().st_size < 300_000 for p in out.glob("*.png"))
