"""Live pages in Debian's chromium: results on load, updates on change, Chinese, phone, hover, heads."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright", reason="pip install playwright pytest-playwright")
from browser_support import needs_chromium  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

pytestmark = needs_chromium

# Playground pages and an element each shows once its result is computed (no button pressed);
# Train shows the attention of an untrained model before any run.
ON_LOAD = [("Train", "#train-maps .js-plotly-plot"),
           ("Attention basics", "#basics-heatmap .js-plotly-plot"),
           ("Attention pooling", "#pool-fixed .js-plotly-plot"),
           ("Multi-head explorer", "#mh-grid .js-plotly-plot"),
           ("Positional encoding", "#pe-heatmap .js-plotly-plot"),
           ("Complexity", "#cx-plot .js-plotly-plot")]
ZH_TABS = ["注意力基础", "注意力汇聚", "多头注意力", "位置编码", "训练", "复杂度", "练习", "我的进度",
           "教师"]
# What each gradebook tab shows once the tour's submission is done (the playground tabs show a
# plot). Their code (the editor, code spans) is code, not interface text. The test app starts
# without an instructor password, so Instructor shows its "disabled" text; its tables in Chinese
# are tested in tests/webapp/views/test_gradebook_lang.py.
ZH_READY = {"练习": "#ex-tests table", "我的进度": "#progress-history table",
            "教师": "#instructor-disabled"}
# The exercise's own identifiers and terms, as its statement and test names use them, and the
# statement switch's "English" (a language named in itself); on the Exercises tab only.
EXERCISE_TERMS = {"attention", "scores", "weights", "torch", "NumPy", "True", "False", "dtype",
                  "float", "py", "ipynb", "English"}
# Technical terms that stay in Latin letters in the Chinese interface (issue 11's allow-list),
# plus the corpus's own tokens and Gradio's footer links.
ALLOWED = {"Q", "K", "V", "softmax", "d_model", "d_ff", "d_v", "d_k", "embed_dim", "BLEU", "sacreBLEU",
           "Transformer", "Bahdanau", "GRU", "RNN", "CNN", "SGD", "Nadaraya", "Watson", "Dropout",
           "sin", "cos", "tanh", "pos", "dim", "log", "out", "cpu", "cuda", "auto", "eos", "bos", "unk", "pad",
           "API", "Gradio", "w", "W_q", "W_k", "w_v", "x", "n", "d", "k", "q", "e", "i", "ms",
           "anonymous", "Ada", "Lovelace", "CSV", "UTC", "Hugging", "Face", "Space"}


def open_tab(page, name: str) -> None:
    page.get_by_role("tab", name=name).click()


def english_words(text: str) -> set[str]:
    # it's, not 'a; a word glued to digits (a learner id's hex "…840ef20b…") is not a word
    words = set(re.findall(r"(?<![0-9A-Za-z])[A-Za-z][A-Za-z_]*(?:['’][A-Za-z]+)*(?![0-9A-Za-z])", text))
    # single letters and subscripted symbols (X_q, W_o, log_k) are mathematics, not English
    return {w for w in words if w not in ALLOWED and not re.fullmatch(r"[a-zA-Z]\d*|[A-Za-z]+_\w+", w)}


def test_every_playground_page_shows_a_result_on_load(page, app_url):
    page.goto(app_url)
    for tab, result in ON_LOAD:
        open_tab(page, tab)
        page.locator(result).wait_for(timeout=90_000)  # complexity measures once: seconds
        if tab == "Train":
            expect(page.locator("#train-maps-caption")).to_contain_text("Before training")
    open_tab(page, "Attention basics")
    expect(page.locator("#basics-weights")).to_contain_text("0.4223")  # the lesson's weights


def test_changing_a_control_updates_or_marks_stale(page, app_url):
    page.goto(app_url)
    expect(page.locator("#basics-weights")).to_contain_text("0.4223", timeout=30_000)
    expect(page.locator("#basics-scores")).not_to_contain_text("4")  # lesson: scores ≤ 2
    page.locator("#basics-scale input").uncheck()  # no ÷√4: the lesson's scores double
    expect(page.locator("#basics-scores")).to_contain_text("4", timeout=10_000)
    # softmax([2, 0, 2]) = [e²/(2e² + 1), 1/(2e² + 1), …] = 0.4683, 0.0634: sharper than 0.4223
    expect(page.locator("#basics-weights")).to_contain_text("0.4683", timeout=10_000)
    page.locator("#basics-mask label").filter(has_text="Causal").click()
    expect(page.locator("#basics-scores")).to_contain_text("−∞", timeout=10_000)  # masked scores
    open_tab(page, "Complexity")  # seconds per measurement: a change only marks it stale
    page.locator("#cx-plot .js-plotly-plot").wait_for(timeout=90_000)
    page.get_by_label("Width d").fill("32")
    expect(page.locator("#cx-status")).to_contain_text("previous settings", timeout=10_000)


def test_step_by_step_hover_shows_the_lessons_terms(page, app_url):
    page.goto(app_url)

    def hover(stage: str, row: int, col: int, n: int, m: int) -> str:
        area = page.locator(f"#basics-step-{stage} .nsewdrag").first
        area.scroll_into_view_if_needed()
        box = area.bounding_box()  # the plotting area: cells are equal slices of it
        x = box["x"] + (col + 0.5) * box["width"] / m
        y = box["y"] + (row + 0.5) * box["height"] / n
        page.mouse.move(x - 3, y - 3)
        page.mouse.move(x, y, steps=4)
        label = page.locator(f"#basics-step-{stage} .hoverlayer .hovertext")
        label.wait_for(timeout=10_000)
        return label.text_content()  # an SVG group: no inner_text

    page.locator("#basics-step-scores .nsewdrag").first.wait_for(timeout=30_000)
    # SOURCES.md, exercise 1: q0 = [1 0 1 0], k2 = [1 1 1 1] → 2, then ÷ √4 = 1.
    assert "q₀·k₂ = 1·1 + 0·1 + 1·1 + 0·1 = 2" in hover("scores", 0, 2, 3, 3)
    assert "2 ÷ √4 = 1" in hover("scaled", 0, 2, 3, 3)
    # softmax of row 0 (scores 1, 0, 1): the lesson's 0.4223
    assert "e^1 / (e^1 + e^0 + e^1) = 0.4223" in hover("weights", 0, 0, 3, 3)


# The visible tab's text; on the gradebook tabs without code (the editor, code spans).
PANEL_TEXT = """(strip) => {
  const panel = [...document.querySelectorAll('[role=tabpanel]')].find(e => e.offsetParent !== null);
  const copy = panel.cloneNode(true);
  if (strip) copy.querySelectorAll('.cm-editor, pre, code').forEach(e => e.remove());
  document.body.appendChild(copy);  // innerText needs a rendered node
  const text = copy.innerText;
  copy.remove();
  return text;
}"""


@pytest.mark.browser_context_args(locale="zh-CN")
def test_chinese_tour_finds_no_english_outside_technical_terms(page, app_url, app_gradebook):
    page.goto(app_url)
    name = page.locator("#who-name textarea, #who-name input").first
    name.fill("张伟")
    name.press("Enter")
    expect(page.locator("#who-status")).to_contain_text("张伟（访客）", timeout=20_000)
    # Something on the gradebook tabs: the starter's public examples (its "not written yet"
    # error and the traceback) and a stored submission.
    open_tab(page, "练习")
    page.locator("#ex-examples").click()
    expect(page.locator("#ex-tests")).to_contain_text("还没有写", timeout=60_000)
    page.locator("#ex-submit").click()
    expect(page.locator("#ex-score")).to_contain_text("得分", timeout=60_000)
    open_tab(page, "我的进度")
    page.locator("#progress-refresh").click()
    expect(page.locator("#progress-history")).to_contain_text("手算注意力", timeout=20_000)
    found = {}
    for tab in ZH_TABS:
        open_tab(page, tab)
        page.wait_for_timeout(2500)  # live results arrive
        panel = page.locator("[role=tabpanel]:visible")
        panel.locator(ZH_READY.get(tab, ".js-plotly-plot")).first.wait_for(timeout=90_000)
        words = english_words(page.evaluate(PANEL_TEXT, tab in ZH_READY))
        if tab == "练习":
            words = {w for w in words if w not in EXERCISE_TERMS and not w.endswith("Error")}
        if words:
            found[tab] = sorted(words)
    assert not found, f"English words in the Chinese interface: {found}"


def test_phone_width_never_scrolls_sideways(page, app_url):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(app_url)
    tabs = page.get_by_role("tab")
    tabs.first.wait_for(timeout=30_000)
    names = [tabs.nth(i).inner_text() for i in range(tabs.count())]
    assert len(names) >= 6  # every tab is on screen (no "more tabs" menu)
    for name in names:
        tab = page.get_by_role("tab", name=name)
        assert tab.is_visible(), name
        tab.click()
        page.wait_for_timeout(2500)
        width, inner = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert width <= inner, f"{name}: the page is {width} px wide at {inner} px"


def test_short_reverse_run_then_the_explorer_shows_its_heads(page, app_url):
    page.goto(app_url)
    open_tab(page, "Train")
    page.locator("#train-steps input").fill("40")
    page.locator("#train-start").click()
    expect(page.locator("#train-status")).to_contain_text("Done", timeout=120_000)
    expect(page.locator("#train-maps-caption")).to_contain_text("anti-diagonal", timeout=30_000)
    # Snapshots: step 0 is the untrained model, before any anti-diagonal
    page.locator("#train-snap input[type=number]").fill("0")
    page.locator("#train-snap input[type=number]").press("Enter")
    expect(page.locator("#train-maps-caption")).to_contain_text("Snapshot at step 0", timeout=30_000)
    open_tab(page, "Multi-head explorer")
    page.locator("#mh-source label").filter(has_text="trained").click()
    expect(page.locator("#mh-caption")).to_contain_text("Heads of your trained model", timeout=30_000)
    expect(page.locator("#mh-caption")).to_contain_text("reverse")
    # The intro describes this run, not a random layer; the random layer's controls are gone
    intro = page.locator("#mh-intro")
    expect(intro).to_contain_text("40 training steps", timeout=30_000)
    expect(intro).to_contain_text("1 × 4")  # the preset's layers × heads
    expect(intro).not_to_contain_text("random tokens")
    for control in ("#mh-embed", "#mh-heads", "#mh-tokens", "#mh-seed", "#mh-compute"):
        expect(page.locator(control)).to_be_hidden()
    expect(page.locator("#mh-kind")).to_be_visible()
    grid = page.locator("#mh-grid")
    expect(grid).to_contain_text("layer 1 · head 4", timeout=30_000)  # the run's 4 heads
    expect(grid).to_contain_text("<eos>")  # real tokens of a held-out sequence, not x0, x1, …
    page.locator("#mh-pick label").filter(has_text="1 · 3").click()
    expect(page.locator("#mh-big")).to_contain_text("(1 · 3)", timeout=30_000)
    # clicking a thumbnail enlarges it, as in BertViz: the 2nd panel is layer 1 · head 2
    page.locator('#mh-grid [data-subplot="x2y2"]').first.click()
    expect(page.locator("#mh-big")).to_contain_text("(1 · 2)", timeout=30_000)
    # The intro's tokens are the grid's: held-out example 0's input, as the cross map's keys
    src = intro.locator("code").first.inner_text()
    for token in src.split():
        expect(grid).to_contain_text(token)
    page.locator("#mh-source label").filter(has_text="random").click()
    expect(intro).to_contain_text("random tokens", timeout=30_000)
    expect(page.locator("#mh-embed")).to_be_visible()
    expect(page.locator("#mh-kind")).to_be_hidden()


@pytest.mark.parametrize("locale, viewport", [("en-US", {"width": 1280, "height": 800}),
                                              ("zh-CN", {"width": 390, "height": 844})])
def test_the_trained_source_before_any_run_says_so_and_hides_the_random_controls(
        browser, app_url, locale, viewport):
    page = browser.new_context(locale=locale, viewport=viewport).new_page()
    page.goto(app_url)
    open_tab(page, "Multi-head explorer" if locale == "en-US" else "多头注意力")
    page.locator("#mh-grid .js-plotly-plot").wait_for(timeout=60_000)
    page.locator("#mh-source label").nth(1).click()  # the model trained on the Train page
    intro = page.locator("#mh-intro")
    expect(intro).to_contain_text("No trained model yet" if locale == "en-US" else "还没有训练好的模型",
                                  timeout=30_000)
    expect(page.locator("#mh-status")).not_to_be_empty(timeout=30_000)  # says: train first
    for control in ("#mh-tokens", "#mh-embed", "#mh-compute"):
        expect(page.locator(control)).to_be_hidden()
    if locale == "zh-CN":
        assert not english_words(intro.inner_text() + page.locator("#mh-status").inner_text())
    page.locator("#mh-source label").nth(0).click()  # back to the random layer
    expect(page.locator("#mh-tokens")).to_be_visible(timeout=30_000)
    page.context.close()


def test_choosing_a_task_loads_its_preset(page, app_url):
    page.goto(app_url)
    open_tab(page, "Train")
    page.locator("#train-task label").filter(has_text="translate").click()
    expect(page.locator("#train-steps input")).to_have_value("1500", timeout=30_000)
    page.locator("#train-task label").filter(has_text="reverse").click()
    expect(page.locator("#train-steps input")).to_have_value("2000", timeout=30_000)


def test_a_new_run_clears_the_previous_runs_outputs(page, app_url):
    page.goto(app_url)
    open_tab(page, "Train")
    page.locator("#train-steps input").fill("20")
    page.locator("#train-start").click()
    expect(page.locator("#train-status")).to_contain_text("Done", timeout=120_000)
    expect(page.locator("#train-maps-caption")).to_contain_text("What to notice", timeout=30_000)
    expect(page.locator("#train-preds")).to_contain_text("prediction")
    page.locator("#train-steps input").fill("5000")
    page.locator("#train-start").click()
    # the old run's caption and predictions go at once, before the new run's first step
    expect(page.locator("#train-maps-caption")).not_to_contain_text("What to notice", timeout=15_000)
    expect(page.locator("#train-preds")).not_to_contain_text("prediction", timeout=15_000)
    page.locator("#train-stop").click()
    expect(page.locator("#train-status")).to_contain_text("stopped by you", timeout=120_000)


@pytest.mark.browser_context_args(locale="zh-CN")
def test_input_errors_read_in_chinese(page, app_url):
    page.goto(app_url)
    page.locator("#basics-heatmap .js-plotly-plot").wait_for(timeout=60_000)
    page.locator("#basics-q textarea").fill("1 a 1 0\n0 1 0 1\n1 1 1 1")  # live: no button
    status = page.locator("#basics-status")
    expect(status).to_contain_text("输入有误", timeout=15_000)
    expect(status).to_contain_text("不是数字")
    assert not english_words(status.inner_text())
    page.get_by_role("tab", name="多头注意力").click()
    page.locator("#mh-heads input").fill("5")  # 16 is not divisible by 5
    expect(page.locator("#mh-status")).to_contain_text("不能被头数 5 整除", timeout=15_000)
