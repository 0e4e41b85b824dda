"""Issue 11's new-learner pass at 390 × 844 in chromium: the Basics caption follows the learner's
d, a burst of toasts stays small, a Chinese slider label stays on one line, and Gradio's own
status words are translated."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright", reason="pip install playwright pytest-playwright")
from browser_support import needs_chromium  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

pytestmark = needs_chromium
PHONE = {"width": 390, "height": 844}
BAD_Q = "1 a 1 0\n0 1 0 1\n1 1 1 1"


def phone_page(browser, locale: str):
    page = browser.new_context(locale=locale, viewport=PHONE).new_page()
    return page


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_basics_caption_follows_the_learners_d(browser, app_url, locale):
    page = phone_page(browser, locale)
    page.goto(app_url)
    notice = page.locator("#basics-caption")
    expect(notice).to_contain_text("d = 4", timeout=60_000)  # the lesson's Q and K: 4 columns
    expect(notice).to_contain_text("2×" if locale == "en-US" else "2 倍")
    page.locator("#basics-q textarea").fill("1 0\n0 1\n1 1")  # live: no button
    page.locator("#basics-k textarea").fill("1 1\n0 1\n2 0")
    expect(notice).to_contain_text("d = 2", timeout=15_000)
    expect(notice).to_contain_text("1.41")
    expect(notice).not_to_contain_text("d = 4")
    page.context.close()


DESKTOP = {"width": 1280, "height": 800}


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_a_burst_of_warnings_keeps_to_one_short_toast(browser, app_url, locale, viewport):
    """On a phone and on a desktop a burst of warnings shows the newest only (the group's count
    says how many), and the toast's text does not repeat the icon Gradio already draws."""
    page = browser.new_context(locale=locale, viewport=viewport).new_page()
    page.goto(app_url)
    page.locator("#basics-heatmap .js-plotly-plot").wait_for(timeout=60_000)
    page.locator("#basics-q textarea").fill(BAD_Q)
    texts = page.locator(".toast-wrap [data-testid=toast-text]")
    for n in (1, 2, 3):  # three presses, three warnings in one group
        if n == 3:  # the newest says something else: it is the one left on screen
            page.locator("#basics-q textarea").fill(BAD_Q.replace("a", "zz"))
        page.locator("#basics-compute").click()
        expect(texts).to_have_count(n, timeout=30_000)
    expect(page.locator(".toast-count")).to_contain_text("3")
    assert [texts.nth(i).is_visible() for i in range(3)] == [False, False, True]
    expect(texts.nth(2)).to_contain_text("zz")
    assert not texts.nth(2).inner_text().lstrip().startswith("⚠")
    box = page.locator(".toast-wrap").bounding_box()
    if viewport is PHONE:
        assert box["y"] + box["height"] <= 0.25 * PHONE["height"] + 1, box
    title = page.locator(".toast-title").first
    if locale == "zh-CN":  # the group's header is the catalogue's, not Gradio's "Warning"
        assert title.evaluate("e => getComputedStyle(e).fontSize") == "0px"
        assert "注意" in title.evaluate("e => getComputedStyle(e, '::before').content")
        count = page.locator(".toast-count").first.bounding_box()
        assert count["height"] > 8  # the count stays readable
    page.context.close()


@pytest.mark.parametrize("locale", ["zh-CN", "en-US"])
def test_slider_label_stays_on_one_line(browser, app_url, locale):
    page = phone_page(browser, locale)
    page.goto(app_url)
    page.get_by_role("tab", name="多头注意力" if locale == "zh-CN" else "Multi-head explorer").click()
    page.locator("#mh-grid .js-plotly-plot").wait_for(timeout=60_000)
    label = page.locator("#mh-tokens [data-testid=block-info]")
    box = label.bounding_box()
    line = label.evaluate("e => parseFloat(getComputedStyle(e).lineHeight) || "
                          "1.5 * parseFloat(getComputedStyle(e).fontSize)")
    assert box["height"] < 1.6 * line, (box, line)  # one line (it was one character per line)
    assert box["width"] > box["height"], box
    number = page.locator("#mh-tokens input[type=number]").bounding_box()
    slider = page.locator("#mh-tokens").bounding_box()
    assert number["x"] + number["width"] <= slider["x"] + slider["width"] + 1  # nothing spills
    page.context.close()


@pytest.mark.parametrize("locale", ["zh-CN", "en-US"])
def test_gradios_screen_reader_status_is_translated(browser, app_url, locale):
    page = phone_page(browser, locale)
    page.goto(app_url)
    page.locator("#basics-heatmap .js-plotly-plot").wait_for(timeout=60_000)
    page.locator("#basics-compute").click()
    status = page.locator(".sr-only[role=status]")
    expect(status.filter(has_text="完成" if locale == "zh-CN" else "Done")).to_have_count(
        1, timeout=30_000)
    assert "common." not in page.evaluate("document.body.textContent")
    page.context.close()


def test_trained_heads_on_a_phone_fit_and_say_what_they_show(browser, app_url):
    page = phone_page(browser, "en-US")
    page.goto(app_url)
    page.get_by_role("tab", name="Train").click()
    page.locator("#train-steps input").fill("20")
    page.locator("#train-start").click()
    expect(page.locator("#train-status")).to_contain_text("Done", timeout=120_000)
    page.get_by_role("tab", name="Multi-head explorer").click()
    page.locator("#mh-source label").filter(has_text="trained").click()
    intro = page.locator("#mh-intro")
    expect(intro).to_contain_text("20 training steps", timeout=30_000)
    expect(page.locator("#mh-grid")).to_contain_text("layer 1 · head 4", timeout=30_000)
    expect(page.locator("#mh-tokens")).to_be_hidden()
    box = intro.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    width, inner = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width <= inner, f"the page is {width} px wide at {inner} px"
    page.context.close()
