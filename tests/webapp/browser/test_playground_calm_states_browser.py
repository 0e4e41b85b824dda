"""Issue 11's playground leftovers in Debian's chromium, en and zh-CN, at 1280 and 390 px: the
Multi-head explorer before any run (a calm state, nothing stale) and after a run ended elsewhere
(shown on opening the tab, no English progress text inside the zh intro); Basics' caption and
scores title follow the √d tickbox and the mask; one toast per bad Compute; zh figures and labels."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright", reason="pip install playwright pytest-playwright")
from browser_support import needs_chromium  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

pytestmark = needs_chromium
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
TABS = {"en-US": {"mh": "Multi-head explorer", "train": "Train", "done": "Done"},
        "zh-CN": {"mh": "多头注意力", "train": "训练", "done": "完成"}}
# Every text the intro shows, as the page changes (Gradio's hidden progress sat in it at opacity 0)
WATCH_INTRO = """() => { window.__intro = [];
  new MutationObserver(() => window.__intro.push(document.querySelector('#mh-intro')?.innerText || ''))
    .observe(document.body, {subtree: true, childList: true, characterData: true}); }"""


def new_page(browser, locale: str, viewport: dict):
    return browser.new_context(locale=locale, viewport=viewport).new_page()


@pytest.mark.parametrize(("locale", "viewport"), [("en-US", DESKTOP), ("zh-CN", PHONE)])
def test_the_explorer_waits_calmly_for_a_run_and_shows_it_when_opened_again(browser, app_url,
                                                                           locale, viewport):
    names = TABS[locale]
    page = new_page(browser, locale, viewport)
    page.goto(app_url)
    page.evaluate(WATCH_INTRO)
    page.get_by_role("tab", name=names["mh"]).click()
    page.locator("#mh-grid .js-plotly-plot").wait_for(timeout=60_000)
    page.locator("#mh-source label").nth(1).click()  # the model trained on the Train page
    intro = page.locator("#mh-intro")
    expect(intro).to_contain_text("No trained model yet" if locale == "en-US" else "还没有训练好的模型",
                                  timeout=30_000)
    for stale in ("#mh-grid", "#mh-pick", "#mh-big", "#mh-kind", "#mh-random-controls"):
        expect(page.locator(stale)).to_be_hidden(timeout=10_000)
    status = page.locator("#mh-status").inner_text()  # it said "input error: train a model first"
    assert ("No trained model yet: train one on the Train page" in status if locale == "en-US"
            else "还没有训练好的模型：先在“训练”页训练一个" in status), status
    assert "error" not in status and "有误" not in status and "⚠" not in status
    assert page.locator("#mh-caption").inner_text().strip() == ""  # no random layer's caption
    page.get_by_role("tab", name=names["train"]).click()
    page.locator("#train-steps input").fill("12")
    page.locator("#train-start").click()
    expect(page.locator("#train-status")).to_contain_text(names["done"], timeout=120_000)
    page.get_by_role("tab", name=names["mh"]).click()  # no control touched: opening is enough
    expect(intro).to_contain_text("12 training steps" if locale == "en-US" else "训练 12 步",
                                  timeout=30_000)
    expect(page.locator("#mh-grid .js-plotly-plot")).to_be_visible(timeout=30_000)
    expect(page.locator("#mh-kind")).to_be_visible()
    expect(page.locator("#mh-status")).to_be_empty()
    seen = page.evaluate("window.__intro")
    progress = [t for t in seen if re.search(r"queue:|processing", t)]
    assert len(seen) > 5 and not progress, progress[:3]
    page.context.close()


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_basics_caption_and_scores_title_follow_the_tickbox_and_the_mask(browser, app_url, locale):
    en = locale == "en-US"
    page = new_page(browser, locale, PHONE)
    page.goto(app_url)
    notice = page.locator("#basics-caption")
    title = page.locator("#basics-scores")
    expect(notice).to_contain_text("d = 4", timeout=60_000)
    expect(title).to_contain_text("Scores after ÷√d" if en else "除以 √d 之后")
    expect(page.locator("#basics-scores")).to_contain_text("1")  # q0·k0 = 2, ÷ √4
    page.locator("#basics-scale input").uncheck()
    expect(notice).to_contain_text("is off" if en else "已取消", timeout=15_000)
    expect(notice).not_to_contain_text("untick it" if en else "取消勾选，")
    expect(title).to_contain_text("not divided by √d" if en else "未除以 √d")
    page.locator("#basics-mask label").nth(2).click()  # causal
    expect(notice).to_contain_text("causal mask" if en else "因果掩码", timeout=15_000)
    expect(title).to_contain_text("−∞")
    if not en:
        assert not re.search(r"[，。：；！？（）] ", notice.inner_text())  # "看点： 每一行"
    page.context.close()


def test_one_bad_compute_gives_one_toast(browser, app_url):
    page = new_page(browser, "en-US", DESKTOP)
    page.goto(app_url)
    page.locator("#basics-heatmap .js-plotly-plot").wait_for(timeout=60_000)
    page.locator("#basics-k textarea").fill("1 0 1 0\n0 1 0 1")  # 2 keys, 3 values
    expect(page.locator("#basics-status")).to_contain_text("K has 2 rows", timeout=15_000)
    page.locator("#basics-compute").click()
    texts = page.locator(".toast-wrap [data-testid=toast-text]")
    expect(texts).to_have_count(1, timeout=30_000)
    page.wait_for_timeout(3000)  # nothing else arrives
    expect(texts).to_have_count(1)
    page.context.close()


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_phone_labels_keep_one_line_and_chinese_axes_stay_level(browser, app_url, locale):
    page = new_page(browser, locale, PHONE)
    page.goto(app_url)
    page.get_by_role("tab", name=TABS[locale]["mh"]).click()
    page.locator("#mh-big .js-plotly-plot").wait_for(timeout=60_000)
    label = page.locator("#mh-embed [data-testid=block-info]")
    line = label.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)")
    assert label.bounding_box()["height"] < 1.6 * line, label.inner_text()  # it wrapped to 2
    big = page.locator("#mh-big")
    if locale == "zh-CN":  # the rows' name reads level, not on its side
        assert big.locator(".ytitle").count() == 0
        corner = big.locator(".annotation-text", has_text="查询")
        expect(corner).to_have_count(1)
        box = corner.bounding_box()  # level: wider than tall (sideways it was 17 × 36)
        assert box["width"] > 1.5 * box["height"], box
    else:
        expect(big.locator(".ytitle")).to_have_text("query")
    page.context.close()
