"""Walk-through issue 8 in chromium at 390x844: the Exercises results table keeps whole header
words and its header never covers the first row; the name box and its status stack."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright", reason="pip install playwright pytest-playwright")
from browser_support import needs_chromium  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

pytestmark = needs_chromium


def test_phone_results_table_and_name_row(browser, app_url):
    page = browser.new_context(locale="en-US", viewport={"width": 390, "height": 844}).new_page()
    page.goto(app_url)
    page.get_by_role("tab", name="Exercises").click()
    page.locator("#ex-examples").click()
    expect(page.locator("#ex-tests")).to_contain_text("✗", timeout=60_000)
    heads = page.locator("#ex-tests thead th")
    one_line = page.evaluate("parseFloat(getComputedStyle(document.body).lineHeight) || 24")
    for i in range(heads.count()):  # whole header words: one line each, never a letter per line
        box = heads.nth(i).bounding_box()
        assert box["height"] < 3 * one_line + 24, (heads.nth(i).inner_text(), box)
        assert box["width"] > box["height"] / 2, (heads.nth(i).inner_text(), box)
    thead = page.locator("#ex-tests thead").first
    assert thead.evaluate("e => getComputedStyle(e).position") != "sticky"
    page.locator("#ex-tests").scroll_into_view_if_needed()
    page.mouse.wheel(0, 200)  # scrolling the page must not slide the header over row 1
    # Let the (smooth) scroll settle, then read both boxes in one frame: two separate reads taken
    # mid-scroll differ by however far the page moved between them.
    page.wait_for_function(
        """() => new Promise(done => {
            const y = window.scrollY;
            requestAnimationFrame(() => requestAnimationFrame(() => done(window.scrollY === y)));
        })"""
    )
    head_bottom, row_top = page.evaluate(
        """() => {
            const head = document.querySelector('#ex-tests thead').getBoundingClientRect();
            const row = document.querySelector('#ex-tests tbody tr').getBoundingClientRect();
            return [head.bottom, row.top];
        }"""
    )
    assert head_bottom <= row_top + 1
    name, status = page.locator("#who-name").bounding_box(), page.locator("#who-status").bounding_box()
    assert status["y"] >= name["y"] + name["height"] - 1  # stacked, not side by side
    assert status["width"] > 300  # the status gets the full width (it wrapped at ~5 characters)
    page.context.close()


def test_phone_exercise_list_shows_whole_titles(browser, app_url):
    """The exercise list shared its row with the statement's language: at 390 px the chosen
    title read "1. Attention by ha". Now the language goes below and the title is whole."""
    page = browser.new_context(locale="en-US", viewport={"width": 390, "height": 844}).new_page()
    page.goto(app_url)
    page.get_by_role("tab", name="Exercises").click()
    field = page.locator("#ex-choose input")
    expect(field).to_have_value("1. Attention by hand", timeout=60_000)
    assert field.evaluate("e => e.scrollWidth <= e.clientWidth"), "the title is cut off"
    assert page.locator("#ex-lang").bounding_box()["y"] > field.bounding_box()["y"] + 20
    page.context.close()
