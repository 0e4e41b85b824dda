"""Issue 11 leftovers on Train in chromium, as a new learner met them (en at 1280 px, zh-CN at
390 px): the dashed loss line was called "validation loss" beside a paragraph saying the curves
are measured on training pairs, its gap to the training loss went unexplained, and the snapshot
slider read "11 of 11" after 938 training steps."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright", reason="pip install playwright pytest-playwright")
from browser_support import ARTIFACTS, needs_chromium, open_page  # noqa: E402
from playwright.sync_api import expect  # noqa: E402
from test_browser_live import PANEL_TEXT, english_words  # noqa: E402

pytestmark = needs_chromium
_page = open_page


def _train(page, tab: str, task: str | None, steps: int, done: str) -> None:
    page.get_by_role("tab", name=tab).click()
    if task is not None:  # choosing a task fills in its preset, steps included
        page.locator("#train-task label").filter(has_text=task).click()
        expect(page.locator("#train-steps input")).not_to_have_value("600", timeout=20_000)
    page.locator("#train-steps input").fill(str(steps))
    page.locator("#train-start").click()
    expect(page.locator("#train-status")).to_contain_text(done, timeout=120_000)


def _legend(page) -> list[str]:
    texts = page.locator("#train-curves .legendtext")
    texts.first.wait_for(timeout=30_000)
    return [texts.nth(i).text_content() for i in range(texts.count())]


def test_en_translate_legend_and_paragraph_agree_and_snapshots_name_steps(browser, app_url):
    page = _page(browser, app_url, "en-US", 1280)
    _train(page, "Train", "translate", 30, "Done")
    gap = page.locator("#train-gap")
    expect(gap).to_contain_text("Why is the dashed line lower?", timeout=30_000)
    expect(gap).to_contain_text("measured on training pairs")  # the held-out paragraph
    legend = _legend(page)
    assert "loss on 256 training pairs (no dropout, no smoothing)" in legend, legend
    assert "training loss (dropout and label smoothing on)" in legend, legend
    assert not any("eval loss" in name or "validation" in name for name in legend), legend
    caption = page.locator("#train-maps-caption")
    expect(caption).to_contain_text("Snapshot at step 30 of 30", timeout=30_000)
    expect(page.locator("#train-snap")).to_contain_text("Attention snapshot (0 = before training")
    snap = page.locator("#train-snap input[type=number]")
    snap.fill("0")
    snap.press("Enter")
    expect(caption).to_contain_text("Snapshot at step 0 of 30", timeout=30_000)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "train-leftovers-en.png"), full_page=True)


def test_zh_phone_run_names_steps_and_losses_in_chinese_only(browser, app_url):
    page = _page(browser, app_url, "zh-CN", 390)
    _train(page, "训练", None, 40, "完成")  # the page's reverse preset, 40 steps
    caption = page.locator("#train-maps-caption")
    expect(caption).to_contain_text("第 40 步（共 40 步）的快照", timeout=30_000)
    expect(page.locator("#train-snap")).to_contain_text("注意力快照（0 = 训练之前")
    legend = _legend(page)
    assert "训练损失" in legend and any("验证序列上的损失" in n for n in legend), legend
    page.wait_for_timeout(2000)  # the last outputs settle
    panel = page.evaluate(PANEL_TEXT, False)
    words = english_words(panel + "\n" + "\n".join(legend))
    assert not words, f"English words on the Chinese Train page after a run: {sorted(words)}"
    assert "： " not in panel and "。 " not in panel and "， " not in panel
    width, inner = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width <= inner, f"the page is {width} px wide at {inner} px"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "train-leftovers-zh-reverse.png"), full_page=True)
    # Translate: the dashed line is a check on training pairs, and the paragraph says why it is
    # lower than the training loss.
    _train(page, "训练", "英译法", 30, "完成")
    expect(page.locator("#train-gap")).to_contain_text("为什么虚线更低", timeout=30_000)
    legend = _legend(page)
    assert any("个训练句对上的损失（无 Dropout，无标签平滑）" in n for n in legend), legend
    assert not any("验证" in n for n in legend), legend
    page.screenshot(path=str(ARTIFACTS / "train-leftovers-zh-translate.png"), full_page=True)
