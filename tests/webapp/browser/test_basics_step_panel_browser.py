"""Issue 20, item 6, in both languages at 1280 and 390 px: the Basics step panel follows the √d
tickbox, the tickbox is greyed out with additive scoring, the intro stops quoting the lesson's
[5, 6, 7, 8] over random matrices (and says it again for the lesson example), and the masked
−∞ cells have no grid line through them."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright", reason="pip install playwright pytest-playwright")
from browser_support import needs_chromium, open_page  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

pytestmark = needs_chromium

CASES = [("en-US", 1280, "Attention basics", "2 · not ÷ √d", "Randomise", "random matrices",
          "Lesson example", "Additive"),
         ("zh-CN", 390, "注意力基础", "2 · 不除以 √d", "随机", "随机矩阵", "课程例子", "加性")]


@pytest.mark.parametrize("locale,width,tab,unscaled,randomise,random_text,lesson,additive", CASES)
def test_basics_follow_their_controls(browser, app_url, locale, width, tab, unscaled, randomise,
                                      random_text, lesson, additive):
    page = open_page(browser, app_url, locale, width)
    page.get_by_role("tab", name=tab).first.click()
    steps = page.locator("#basics-steps")
    steps.locator(".js-plotly-plot").first.wait_for(timeout=30_000)
    page.locator("#basics-scale input").uncheck()
    expect(page.locator("#basics-step-scaled")).to_contain_text(unscaled, timeout=20_000)
    page.locator("#basics-scale input").check()
    intro = page.locator("#basics-intro")
    expect(intro).to_contain_text("[5, 6, 7, 8]")
    page.get_by_role("button", name=randomise).click()
    expect(intro).to_contain_text(random_text, timeout=20_000)
    page.get_by_role("button", name=lesson).click()
    expect(intro).not_to_contain_text(random_text, timeout=20_000)
    page.locator("#basics-scoring").get_by_text(additive).click()
    expect(page.locator("#basics-scale input")).to_be_disabled(timeout=20_000)
    page.context.close()


def test_masked_cells_have_no_grid_line():
    import numpy as np

    from transformer_lab.stepwise import attention_stages, stage_figure

    q = k = v = np.eye(3)
    keep = np.tril(np.ones((3, 3), dtype=bool))
    fig = stage_figure(attention_stages(q, k, v, scale=True, keep=keep)[2], "3 · mask")
    assert fig.layout.xaxis.showgrid is False and fig.layout.yaxis.showgrid is False
    assert fig.layout.xaxis.zeroline is False and fig.layout.yaxis.zeroline is False


TABLES = "#basics-shapes, #basics-scores, #basics-weights, #basics-output"
PLACEHOLDER = f"""() => [...document.querySelectorAll('{TABLES}')]
  .filter(el => el.offsetParent !== null).map(el =>
  [...el.querySelectorAll('thead th')].map(th => th.innerText.trim()).join('|'))"""


@pytest.mark.parametrize("locale,first", [("en-US", "step"), ("zh-CN", "步骤")])
def test_the_first_minute_shows_no_placeholder_table(browser, app_url, locale, first):
    """Issue 26, item 2: the Shapes table first showed Gradio's placeholder headers "1 | 2 | 3"
    until the first computation; now the tables appear with their first numbers."""
    page = open_page(browser, app_url, locale, 1280)
    seen = []
    for _ in range(120):  # sample the tables shown while the page loads
        seen += page.evaluate(PLACEHOLDER)
        if any(h.startswith(first) for h in seen):
            break
        page.wait_for_timeout(50)
    assert any(h.startswith(first) for h in seen), seen  # the shapes table, with its header
    assert not any(h.replace(" ", "").startswith("1|2|3") for h in seen), seen
    page.context.close()
