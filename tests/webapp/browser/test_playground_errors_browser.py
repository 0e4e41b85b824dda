"""New-learner pass 4 (2026-12-01) in Debian's chromium, en at 1280 px and zh-CN at 390 px:
errors that name their cause (Positional's d_model 6, Basics' valid length), additive scoring
without five empty step panels, one minus sign, Pooling with 0 steps, and My progress where a
click on a history row picks that submission (it did nothing) and an empty Load says so plainly."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright", reason="pip install playwright pytest-playwright")
from browser_support import needs_chromium  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

pytestmark = needs_chromium
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
CASES = [("en-US", DESKTOP), ("zh-CN", PHONE)]
WORDS = {
    "en-US": {"pe": "Positional encoding", "pool": "Attention pooling", "ex": "Exercises",
              "progress": "My progress", "keys": "from 1 to 3 (the number of keys)",
              "dot": "Dot product", "dropped": "Not plotted: 6, 7", "none": "No SGD step taken",
              "row": "its code is shown above", "empty": "click its row in your history"},
    "zh-CN": {"pe": "位置编码", "pool": "注意力汇聚", "ex": "练习", "progress": "我的进度",
              "keys": "1 到 3 之间的整数（键的个数）", "dot": "点积", "dropped": "未画出：",
              "none": "没有进行 SGD 更新", "row": "它的代码显示在上方", "empty": "点击历史记录中的那一行"},
}


def new_page(browser, locale: str, viewport: dict):
    return browser.new_context(locale=locale, viewport=viewport).new_page()


def set_number(page, selector: str, value: str) -> None:
    box = page.locator(f"{selector} input").first
    box.fill(value)
    box.press("Enter")


@pytest.mark.parametrize(("locale", "viewport"), CASES)
def test_basics_valid_length_additive_steps_and_one_minus_sign(browser, app_url, locale, viewport):
    w = WORDS[locale]
    page = new_page(browser, locale, viewport)
    page.goto(app_url)
    page.locator("#basics-heatmap .js-plotly-plot").wait_for(timeout=60_000)
    for stage in ("scores", "output"):
        expect(page.locator(f"#basics-step-{stage}")).to_be_visible()
    page.locator("#basics-mask label").nth(1).click()  # valid length
    status = page.locator("#basics-status")
    for bad in ("0", "7"):  # one limit for both: 1 … the number of keys (3)
        set_number(page, "#basics-valid", bad)
        expect(status).to_contain_text(w["keys"], timeout=15_000)
        expect(status).not_to_contain_text("16")
    set_number(page, "#basics-valid", "2")
    expect(status).to_be_empty(timeout=15_000)
    page.locator("#basics-scoring label").nth(1).click()  # additive
    title = page.locator("#basics-steps-title")
    expect(title).to_contain_text(w["dot"], timeout=15_000)
    for stage in ("scores", "scaled", "masked", "weights", "output"):
        expect(page.locator(f"#basics-step-{stage}")).to_be_hidden()
    scores = page.locator("#basics-scores")
    expect(scores).to_contain_text("−∞")
    text = scores.inner_text()
    assert re.search(r"−\d+\.\d+", text), text  # the lesson's additive k1 score is negative
    assert not re.search(r"-\d", text), text
    page.locator("#basics-scoring label").nth(0).click()  # back to dot product: the steps return
    expect(page.locator("#basics-step-scores .js-plotly-plot")).to_be_visible(timeout=15_000)
    page.context.close()


@pytest.mark.parametrize(("locale", "viewport"), CASES)
def test_positional_d_model_6_and_pooling_with_no_step(browser, app_url, locale, viewport):
    w = WORDS[locale]
    page = new_page(browser, locale, viewport)
    page.goto(app_url)
    page.get_by_role("tab", name=w["pe"]).click()
    page.locator("#pe-curves .js-plotly-plot").wait_for(timeout=60_000)
    set_number(page, "#pe-d", "6")  # only d_model changes; the dims box keeps 4, 5, 6, 7
    status = page.locator("#pe-status")
    expect(status).to_contain_text(w["dropped"], timeout=15_000)
    expect(status).to_contain_text("d_model = 6")
    expect(status).not_to_contain_text("⚠")
    expect(page.locator("#pe-curves g.scatterlayer g.trace")).to_have_count(2, timeout=15_000)
    page.locator("#pe-dims textarea, #pe-dims input").first.fill("8, 9")
    page.locator("#pe-dims textarea, #pe-dims input").first.press("Enter")
    expect(status).to_contain_text("d_model = 6", timeout=15_000)
    expect(status).to_contain_text("8, 9")
    page.get_by_role("tab", name=w["pool"]).click()
    page.locator("#pool-curve .js-plotly-plot").wait_for(timeout=60_000)
    set_number(page, "#pool-steps", "0")
    caption = page.locator("#pool-caption")
    expect(caption).to_contain_text(w["none"], timeout=15_000)
    expect(caption).to_contain_text("w = 0.496")  # as the learned panel's title writes it
    expect(page.locator("#pool-learned")).to_contain_text("0.496")
    page.context.close()


@pytest.mark.parametrize(("locale", "viewport", "column"), [("en-US", DESKTOP, 1),
                                                             ("zh-CN", PHONE, 0)])
def test_a_click_on_a_history_row_picks_that_submission(browser, app_url, locale, viewport,
                                                          column):
    w = WORDS[locale]
    page = new_page(browser, locale, viewport)
    page.goto(app_url)
    page.get_by_role("tab", name=w["ex"]).click()
    expect(page.locator("#ex-code")).to_contain_text("def ", timeout=20_000)
    page.locator("#ex-submit").click()  # the starter: graded and stored in this browser's history
    expect(page.locator("#ex-score")).to_contain_text(re.compile(r"\d+ / \d+"), timeout=90_000)
    page.get_by_role("tab", name=w["progress"]).click()
    first = page.locator("#progress-history [data-testid=cell-0-0]")  # the newest row's #
    expect(first).to_have_text(re.compile(r"^\s*\d+\s*$"), timeout=60_000)
    number = first.inner_text().strip()
    status = page.locator("#progress-status")
    box = page.locator("#progress-pick input, #progress-pick textarea").first
    load = page.get_by_role("button", name=re.compile("Load into|载入"))
    # a click on the exercise's title, or on the number at 390 px (the table is cut off there)
    page.locator(f"#progress-history [data-testid=cell-0-{column}]").click()
    expect(box).to_have_value(number, timeout=15_000)
    expect(page.locator("#progress-preview")).to_contain_text("def ", timeout=15_000)
    expect(status).to_contain_text(w["row"])
    expect(status).to_contain_text(number)
    load.click()  # that submission's code goes into the editor, on the Exercises tab
    expect(page.locator("#ex-code")).to_be_visible(timeout=15_000)
    expect(page.locator("#ex-code")).to_contain_text("def ")
    page.get_by_role("tab", name=w["progress"]).click()
    box.fill("")
    load.click()  # the box is empty: a sentence, not Python's repr of ''
    expect(status).to_contain_text(w["empty"], timeout=15_000)
    expect(status).not_to_contain_text("''")
    page.context.close()


def test_a_forged_row_click_opens_nobody_elses_code(app_url):
    """The row click is a private event, still reachable over raw HTTP with any row: the code
    comes back only for the owner's own key, as with a typed number."""
    import json
    import uuid

    import httpx

    import app
    from gradebook import identity as idm
    from webapp.services import submissions as glue

    alice_key = idm.new_browser_key()
    sub = glue.grade_and_record("causal-mask", "x = 1\n", idm.Claim("alice", alice_key), "s-a",
                                submitter=app.LAB.submitter)
    sub_id = sub["extra_data"]["submission_id"]
    index = next(i for i, fn in app.demo.fns.items() if getattr(fn.fn, "__name__", "") == "on_row")
    base = app_url.rstrip("/")

    def click(key: str) -> list:
        session = uuid.uuid4().hex[:11]
        event = {"index": [0, 1], "value": "x", "row_value": [sub_id, "x"], "selected": True}
        httpx.post(f"{base}/gradio_api/queue/join", json={
            "data": ["alice", key], "fn_index": index, "session_hash": session,
            "event_data": event, "trigger_id": None}, timeout=30).raise_for_status()
        with httpx.stream("GET", f"{base}/gradio_api/queue/data",
                          params={"session_hash": session}, timeout=60) as stream:
            for line in stream.iter_lines():
                if line.startswith("data:") and '"process_completed"' in line:
                    return json.loads(line[5:])["output"]["data"]
        raise AssertionError("no answer")

    for stranger in ("", "alice", idm.new_browser_key()):
        pick, preview, status = click(stranger)
        assert not isinstance(preview, str) and not isinstance(pick, str), (pick, preview)
        assert re.search(r"not in your history|no history|no learner key", status), status
    pick, preview, status = click(alice_key)
    assert pick == str(sub_id) and preview.strip() == "x = 1" and f"#{sub_id}" in status
