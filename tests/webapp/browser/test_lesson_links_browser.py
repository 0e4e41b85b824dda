"""Lesson links in Debian's chromium (issue 20): on every playground tab, set the controls, copy
the link, open it in a new browser context: the same tab, the same controls and the same result;
a teacher's hide= leaves controls out and lock= greys the rest; a tampered link opens the
defaults with one sentence. en at 1280 px and zh-CN at 390 px."""

from __future__ import annotations

import re
import time
from urllib.parse import parse_qsl, quote, urlsplit

import pytest

pytest.importorskip("playwright", reason="pip install playwright pytest-playwright")
from browser_support import ARTIFACTS, needs_chromium  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

pytestmark = needs_chromium
DESKTOP = ("en-US", {"width": 1280, "height": 900})
PHONE = ("zh-CN", {"width": 390, "height": 844})
TAB_NAMES = {"en-US": {"basics": "Attention basics", "pooling": "Attention pooling",
                       "multihead": "Multi-head explorer", "positional": "Positional encoding",
                       "train": "Train", "complexity": "Complexity"},
             "zh-CN": {"basics": "注意力基础", "pooling": "注意力汇聚", "multihead": "多头注意力",
                       "positional": "位置编码", "train": "训练", "complexity": "复杂度"}}
INVALID = {"en-US": "This link's settings could not be read, so the page opened with its usual settings.",
           "zh-CN": "无法读取此链接中的设置，页面已按默认设置打开。"}
# Every linked control's state as the page shows it: #<tab>-<name> or the page's own elem_id.
STATE = """(ids) => Object.fromEntries(ids.map((id) => {
  const root = document.getElementById(id);
  if (!root) return [id, null];
  const checked = root.querySelector('input[type=radio]:checked');
  if (root.querySelector('input[type=radio]')) return [id, checked ? checked.value : ''];
  const box = root.querySelector('input[type=checkbox]');
  if (box) return [id, box.checked ? '1' : '0'];
  const field = root.querySelector('textarea, input[type=number], input');
  return [id, field ? field.value : null];
}))"""


def new_page(browser, locale: str, viewport: dict, url: str):
    page = browser.new_context(locale=locale, viewport=viewport).new_page()
    page.goto(url)
    return page


def ids(tab: str) -> list[str]:
    """The elem_ids of the tab's linked controls, read from the app's link registry."""
    import app

    return [ELEM_IDS.get((tab, name), f"{tab}-{name}") for name in app.LINKS.specs()[tab]]


# Controls that had an elem_id of their own before lesson links
ELEM_IDS = {("basics", "q"): "basics-q", ("basics", "k"): "basics-k", ("basics", "v"): "basics-v",
            ("basics", "scoring"): "basics-scoring", ("basics", "scale"): "basics-scale",
            ("basics", "mask"): "basics-mask", ("basics", "valid"): "basics-valid",
            ("pooling", "steps"): "pool-steps", ("multihead", "source"): "mh-source",
            ("multihead", "kind"): "mh-kind", ("multihead", "embed"): "mh-embed",
            ("multihead", "heads"): "mh-heads", ("multihead", "tokens"): "mh-tokens",
            ("multihead", "seed"): "mh-seed", ("multihead", "pick"): "mh-pick",
            ("positional", "d"): "pe-d", ("positional", "dims"): "pe-dims",
            ("train", "task"): "train-task", ("train", "model"): "train-model",
            ("train", "pe"): "train-pe", ("train", "corpus"): "train-corpus",
            ("train", "steps"): "train-steps", ("train", "kind"): "train-kind",
            ("train", "sentence"): "train-sentence"}


# Shown only on a Space, for a trained source, for the translate task: absent in both pages here
SOMETIMES = ("train-corpus", "mh-kind", "train-sentence")


def state(page, tab: str) -> dict:
    return page.evaluate(STATE, ids(tab))


def copy_link(page, tab: str) -> str:
    page.locator(f"#link-copy-{tab}").click()
    box = page.locator(f"#link-box-{tab} textarea")
    expect(box).to_have_value(re.compile(r"^http://"), timeout=15_000)
    link = box.input_value()
    assert dict(parse_qsl(urlsplit(link).query))["tab"] == tab
    return link


def set_number(page, elem_id: str, value) -> None:
    """Type into a number box or a slider's box and leave it (Gradio sends the change then)."""
    box = page.locator(f"#{elem_id} input[type=number]").first
    box.fill(str(value))
    box.press("Enter")
    box.blur()


def pick(page, elem_id: str, value: str) -> None:
    page.locator(f"#{elem_id} input[value='{value}']").check()


def round_trip(browser, app_url, locale, viewport, tab, set_up, result, before_result=None):
    """Set the tab up, copy its link, open it elsewhere: same tab, same state, same result."""
    page = new_page(browser, locale, viewport, app_url)
    page.get_by_role("tab", name=TAB_NAMES[locale][tab]).click()
    set_up(page)
    first = result(page)
    shown = state(page, tab)
    missing = [k for k, v in shown.items() if v is None and k not in SOMETIMES]
    assert not missing, missing
    link = copy_link(page, tab)
    assert page.evaluate("window.location.href") == link  # the address bar holds the setup too
    other = new_page(browser, locale, viewport, link)
    expect(other.get_by_role("tab", name=TAB_NAMES[locale][tab])).to_have_attribute(
        "aria-selected", "true", timeout=30_000)
    if before_result:
        before_result(other)
    again = result(other)
    assert state(other, tab) == shown
    # "settled" is 1.5 s without a change; on a busy machine a queued redraw of either page can
    # come later than that, so both are read again until they agree (or the minute is over)
    deadline = time.monotonic() + 60
    while again != first and time.monotonic() < deadline:
        first, again = result(page), result(other)
    assert again == first
    expect(other.locator("#link-notice")).not_to_contain_text("⚠️")
    assert copy_link(other, tab) == link  # the opened page gives the same link back
    page.context.close()
    return other, link


def settled(page, selector: str, timeout_s: float = 30.0) -> str:
    """The text of ``selector`` once it stops changing (live views redraw after each change)."""
    end, last, same_since = time.monotonic() + timeout_s, None, time.monotonic()
    while time.monotonic() < end:
        text = page.locator(selector).inner_text() if page.locator(selector).count() else None
        if text != last:
            last, same_since = text, time.monotonic()
        elif text and time.monotonic() - same_since > 1.5:
            return text
        page.wait_for_timeout(200)
    raise AssertionError(f"{selector} never settled: {last!r}")


@pytest.mark.parametrize(("locale", "viewport"), [DESKTOP, PHONE])
def test_basics_round_trip(browser, app_url, locale, viewport):
    def set_up(page):
        page.locator("#basics-q textarea").fill("1, 0, 2, 0\n0, 1, 0, 3")
        pick(page, "basics-scoring", "dot")
        page.locator("#basics-scale input").uncheck()
        pick(page, "basics-mask", "valid")
        set_number(page, "basics-valid", 1)
        page.locator("#basics-weights").wait_for()

    def result(page):
        return settled(page, "#basics-weights") + settled(page, "#basics-caption")

    other, link = round_trip(browser, app_url, locale, viewport, "basics", set_up, result)
    assert "valid=1" in link and "scale=0" in link
    assert "−∞" in other.locator("#basics-scores").inner_text()
    other.context.close()


@pytest.mark.parametrize(("locale", "viewport"), [DESKTOP, PHONE])
def test_pooling_round_trip_with_hidden_and_locked_controls(browser, app_url, locale, viewport):
    def set_up(page):
        page.locator("#pool-fixed .js-plotly-plot").wait_for(timeout=60_000)
        set_number(page, "pooling-n", 80)
        set_number(page, "pooling-w", 2.5)
        set_number(page, "pool-steps", 12)
        set_number(page, "pooling-seed", 3)

    def result(page):
        return settled(page, "#pool-caption")

    other, link = round_trip(browser, app_url, locale, viewport, "pooling", set_up, result)
    assert "n=80" in link and "w=2.5" in link and "steps=12" in link
    other.context.close()
    lesson = new_page(browser, locale, viewport, link + "&hide=noise,lr&lock=1")
    lesson.locator("#pool-fixed .js-plotly-plot").wait_for(timeout=60_000)
    for hidden in ("pooling-noise", "pooling-lr"):
        expect(lesson.locator(f"#{hidden}")).to_have_count(0, timeout=15_000)
    for shown in ("pooling-n", "pooling-w", "pool-steps", "pooling-seed"):
        expect(lesson.locator(f"#{shown} input[type=number]").first).to_be_disabled()
    expect(lesson.locator("#link-notice")).to_contain_text("🔒")
    assert "12" in lesson.locator("#pool-steps input[type=number]").input_value()
    # a learner's copy of the lesson keeps it a lesson
    assert "hide=noise%2Clr" in copy_link(lesson, "pooling") and "lock=1" in copy_link(lesson, "pooling")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    lesson.screenshot(path=str(ARTIFACTS / f"lesson-link-pooling-{locale}.png"), full_page=True)
    lesson.context.close()


def test_multihead_round_trip(browser, app_url):
    locale, viewport = DESKTOP

    def set_up(page):
        page.locator("#mh-grid .js-plotly-plot").wait_for(timeout=60_000)
        page.locator("#mh-heads input").fill("2")
        page.locator("#mh-heads input").press("Enter")
        set_number(page, "mh-tokens", 5)
        pick(page, "multihead-mask", "causal")
        page.locator("#mh-seed input").fill("7")
        page.locator("#mh-seed input").press("Enter")
        expect(page.locator("#mh-pick label")).to_have_count(2, timeout=30_000)
        settled(page, "#mh-grid")  # a redraw still on its way would bring back its own head
        pick(page, "mh-pick", "1 · 2")
        expect(page.locator("#mh-big")).to_contain_text("1 · 2", timeout=30_000)

    def result(page):
        expect(page.locator("#mh-pick label")).to_have_count(2, timeout=30_000)
        return settled(page, "#mh-big") + settled(page, "#mh-grid")

    other, link = round_trip(browser, app_url, locale, viewport, "multihead", set_up, result)
    assert "heads=2" in link and "pick=1+%C2%B7+2" in link
    other.context.close()


@pytest.mark.parametrize(("locale", "viewport"), [DESKTOP, PHONE])
def test_positional_round_trip(browser, app_url, locale, viewport):
    def set_up(page):
        page.locator("#pe-heatmap .js-plotly-plot").wait_for(timeout=60_000)
        page.locator("#pe-d input").fill("16")
        page.locator("#pe-d input").press("Enter")
        page.locator("#pe-dims textarea, #pe-dims input").first.fill("0, 1, 20")
        page.locator("#pe-dims textarea, #pe-dims input").first.press("Enter")
        set_number(page, "positional-perm_d", 4)

    def result(page):
        expect(page.locator("#pe-status")).to_contain_text("20", timeout=30_000)  # 20 ≥ d_model
        return settled(page, "#pe-status") + settled(page, "#pe-perm")

    other, link = round_trip(browser, app_url, locale, viewport, "positional", set_up, result)
    assert "d=16" in link and "perm_d=4" in link
    other.context.close()


def test_complexity_round_trip(browser, app_url):
    locale, viewport = DESKTOP

    def set_up(page):
        page.locator("#cx-plot .js-plotly-plot").wait_for(timeout=120_000)
        page.locator("#complexity-sizes textarea, #complexity-sizes input").first.fill("32, 64")
        page.locator("#complexity-d input").fill("16")
        page.locator("#cx-run").click()
        expect(page.locator("#cx-measured")).to_contain_text("n=64", timeout=60_000)

    def before_result(page):  # the link shows the first measurement and says so; Run times it
        expect(page.locator("#link-notice")).to_contain_text("Run the benchmark", timeout=15_000)
        page.locator("#cx-plot .js-plotly-plot").wait_for(timeout=120_000)
        page.locator("#cx-run").click()
        expect(page.locator("#cx-measured")).to_contain_text("n=64", timeout=60_000)

    def result(page):  # timings differ run to run: the measured sizes and d are the result
        head = page.locator("#cx-measured thead").inner_text()
        return head, "16" in page.locator("#cx-measured").inner_text()

    other, link = round_trip(browser, app_url, locale, viewport, "complexity", set_up, result,
                             before_result)
    assert "n=128" not in other.locator("#cx-measured thead").inner_text()
    other.context.close()


# A preset run short enough to train here: the link must bring exactly its cache key back.
PRESET = dict(task="reverse", heads=2, d_model=32, layers=1, d_ff=64, dropout=0.0, pe="none",
              steps=40, device="cpu", seed=0, model="transformer")


@pytest.mark.parametrize(("locale", "viewport"), [DESKTOP, PHONE])
def test_train_link_to_a_preset_run_is_a_cache_hit(browser, app_url, client, locale, viewport):
    trained = client.predict(**PRESET, api_name="/train")  # once: later calls hit the cache
    done = {"en-US": "From the cache", "zh-CN": "来自缓存"}[locale]

    def set_up(page):
        page.locator("#train-start").wait_for()
        page.locator("#train-heads input").fill("2")
        pick(page, "train-pe", "none")
        page.locator("#train-steps input").fill("40")
        page.locator("#train-steps input").press("Tab")

    def before_result(page):
        expect(page.locator("#link-notice")).to_contain_text("⚡", timeout=15_000)

    def result(page):  # nothing trains by itself: Train replays the cached run at once
        expect(page.locator("#train-status")).not_to_contain_text(done)
        page.locator("#train-start").click()  # "From the cache" is said of a replay only
        expect(page.locator("#train-status")).to_contain_text(done, timeout=20_000)
        text = page.locator("#train-status").inner_text()  # its Done line (not a progress timer)
        return next(line for line in text.splitlines() if done in line)

    other, link = round_trip(browser, app_url, locale, viewport, "train", set_up, result,
                             before_result)
    assert str(trained["summary"]["steps"]) in other.locator("#train-status").inner_text()
    other.context.close()
    # the teacher's lesson: hide d_ff and dropout, lock the rest; Train still replays
    lesson = new_page(browser, locale, viewport, link + "&hide=d_ff,dropout&lock=1")
    expect(lesson.locator("#link-notice")).to_contain_text("🔒", timeout=30_000)
    for hidden in ("train-d_ff", "train-dropout"):
        expect(lesson.locator(f"#{hidden}")).to_have_count(0)
    expect(lesson.locator("#train-heads input")).to_be_disabled()
    expect(lesson.locator("#train-pe input[value='none']")).to_be_disabled()
    expect(lesson.locator("#train-pe input[value='none']")).to_be_checked()
    lesson.locator("#train-start").click()
    expect(lesson.locator("#train-status")).to_contain_text(done, timeout=15_000)
    lesson.context.close()


# (query, the tab it opens, the key the sentence names; None: the whole link is unreadable)
TAMPERED = [
    ("?tab=basics&seed=abc", "basics", "seed"),  # a wrong type
    ("?tab=pooling&n=99999", "pooling", "n"),  # outside the slider
    ("?tab=train&task=translate2&heads=2", "train", "task"),  # not a choice
    ("?tab=nowhere", "basics", None),  # an unknown tab
    ("?tab=train&hide=pe,colour", "train", "hide"),  # an unknown control
    ("?tab=basics&q=" + "1,%20" * 3000, "basics", None),  # a huge value
]
INVALID_KEY = {"en-US": "This link's “{name}” could not be read, so this tab opened with its usual settings.",
               "zh-CN": "无法读取此链接中的“{name}”，本页已按默认设置打开。"}


@pytest.mark.parametrize(("locale", "viewport"), [DESKTOP, PHONE])
def test_a_tampered_link_opens_the_defaults_with_one_sentence(browser, app_url, locale, viewport):
    """The link's own tab when that part is valid (a teacher's typo in one value no longer
    sends a class to Attention basics, chromium pass), with its defaults and the key named."""
    clean = new_page(browser, locale, viewport, app_url)
    clean.locator("#basics-weights").wait_for()
    weights = settled(clean, "#basics-weights")
    defaults = {}
    for tab in ("basics", "pooling", "train"):
        clean.get_by_role("tab", name=TAB_NAMES[locale][tab]).click()
        clean.wait_for_timeout(500)
        defaults[tab] = state(clean, tab)
    clean.context.close()
    for query, tab, key in TAMPERED:
        page = new_page(browser, locale, viewport, app_url + query)
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))  # noqa: B023 - read at once
        said = INVALID[locale] if key is None else INVALID_KEY[locale].format(name=key)
        expect(page.locator("#link-notice")).to_have_text(f"⚠️ {said}", timeout=30_000)
        expect(page.get_by_role("tab", name=TAB_NAMES[locale][tab])).to_have_attribute(
            "aria-selected", "true")
        page.wait_for_timeout(300)
        assert state(page, tab) == defaults[tab], query
        if tab == "basics":
            assert settled(page, "#basics-weights") == weights
        assert page.locator(".toast-body").count() == 0 and not errors, query
        assert "Traceback" not in page.locator("body").inner_text()
        page.context.close()


# Red team (issue 29 item 12): a link's key was echoed into the Markdown notice (a phishing link,
# a remote image the browser fetched, a heading). (query, the tab it opens, the key named: one of
# ours, or "" for a key the tab does not have, None for an unreadable link)
HOSTILE = [
    ("?tab=basics&" + quote("[Sign in](//ev.il/)") + "=1", "basics", ""),
    ("?tab=basics&" + quote('<a href="//ev.il/">Sign in</a>') + "=1", "basics", ""),
    ("?tab=basics&" + quote("![x](http://ev.il/x.png)") + "=1", "basics", ""),
    ("?tab=basics&" + quote('<img src="http://ev.il/i.png">') + "=1", "basics", ""),
    ("?tab=basics&" + quote("\n\n# EXAM CANCELLED") + "=1", "basics", ""),
    ("?tab=train&heads=" + quote("[Sign in](//ev.il/)"), "train", "heads"),
    ("?tab=train&d_model=" + quote("\n\n# EXAM ![x](http://ev.il/y.png)"), "train", "d_model"),
    ("?tab=" + quote('<img src="http://ev.il/t.png">'), "basics", None),
]
UNKNOWN = {"en-US": "This link names a setting this tab does not have, so this tab opened with its "
                    "usual settings.",
           "zh-CN": "此链接含有本页没有的设置，本页已按默认设置打开。"}


@pytest.mark.parametrize(("locale", "viewport"), [DESKTOP, PHONE])
def test_a_hostile_link_puts_none_of_its_markup_in_the_notice(browser, app_url, locale, viewport):
    """Only our sentence, naming only our own key (d_model shows as itself): no link, image or
    heading inside the notice, and the browser asks nothing of the attacker's host."""
    app_host = urlsplit(app_url).hostname
    for query, tab, key in HOSTILE:
        context = browser.new_context(locale=locale, viewport=viewport)
        page = context.new_page()
        hosts = []
        page.on("request", lambda r: hosts.append(urlsplit(r.url).hostname))  # noqa: B023
        page.goto(app_url + query)
        said = (INVALID[locale] if key is None else UNKNOWN[locale] if not key
                else INVALID_KEY[locale].format(name=key))
        expect(page.locator("#link-notice")).to_have_text(f"⚠️ {said}", timeout=30_000)
        expect(page.get_by_role("tab", name=TAB_NAMES[locale][tab])).to_have_attribute(
            "aria-selected", "true")
        marked = page.locator("#link-notice").locator("a, img, h1, h2, h3, h4, h5, h6, script")
        assert marked.count() == 0, query
        assert "EXAM" not in page.locator("body").inner_text(), query
        page.wait_for_timeout(500)  # an image would be asked for by now
        assert not [h for h in hosts if h and h != app_host], (query, set(hosts))
        context.close()


def test_the_copy_button_draws_its_icon_whatever_the_font(browser, app_url):
    """Issue 26, item 11: the copy button's 🔗 was an empty box where the font lacks emoji
    (Debian's chromium with the CJK font only). Now it is an SVG icon, drawn by the browser."""
    context = browser.new_context(locale="zh-CN", viewport=PHONE[1])
    page = context.new_page()
    page.goto(app_url)
    button = page.locator("#link-copy-basics")
    expect(button).to_be_visible(timeout=30_000)
    assert "🔗" not in button.inner_text()
    icon = button.locator("img")
    expect(icon).to_have_count(1)
    button.scroll_into_view_if_needed()  # a lazy image below the fold is not fetched
    page.wait_for_function("(el) => el.complete && el.naturalWidth > 0", arg=icon.element_handle(),
                           timeout=30_000)
    context.close()
