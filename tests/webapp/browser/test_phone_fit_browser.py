"""Issue 26, items 9 and 10, in chromium at 390 × 844: every tab, once used (a computation, a
two-head Train run of one step, a submission), fits the phone, and the Chinese page shows no
English words outside code and technical terms.

Fit: no text, picture or control reaches past the window's right edge, none is cut off by a box
that cannot scroll (a table inside its own ``overflow-x: auto`` box is fine: it scrolls), and no
plot's titles or tick labels lie on each other. Words: distinct English words a Chinese reader
meets on the tab (text, plot labels, placeholders, tooltips), Gradio's and Plotly's own
included, and apart from them those a screen reader reads (aria-label).
Both figures are printed per tab (``pytest -s``)."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright", reason="pip install playwright pytest-playwright")
from browser_support import needs_chromium, open_page  # noqa: E402
from playwright.sync_api import expect  # noqa: E402
from test_browser_live import ALLOWED, EXERCISE_TERMS  # noqa: E402

pytestmark = needs_chromium
PHONE = (390, 844)
# Per tab on the Chinese page, seen and read aloud: issue 26 (item 10) asked for at most 10;
# every tab reached 0 (from up to 20 seen, 28 read aloud), so any new English word fails here.
MAX_ENGLISH_WORDS = 0
# Names beside the Chinese tour's technical terms: a file format and Plotly's own name.
NAMES = {"PNG", "Plotly", "js"}

# What sticks out, per element: past the window's edge, or past the edge of an ancestor that
# clips without scrolling. A box that scrolls sideways (overflow-x auto/scroll) holds what lies
# past its edge within reach, so from there on only the box itself has to fit. Then pairs of a
# plot's labels (subplot titles, tick labels, legend entries) that lie on each other.
FIT = """() => {
  const W = document.documentElement.clientWidth;
  const found = [];
  const shown = (e) => {
    for (let a = e; a && a.nodeType === 1; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.display === 'none' || s.visibility !== 'visible' || parseFloat(s.opacity) === 0
          || (s.clip && s.clip !== 'auto') || a.id === 'js-plotly-tester') return false;
    }
    return true;
  };
  const name = (e) => {
    const bits = [];
    for (let p = e; p && p.nodeType === 1 && bits.length < 3; p = p.parentElement) {
      bits.unshift(p.id ? '#' + p.id : p.tagName.toLowerCase() + (p.classList[0] ? '.' + p.classList[0] : ''));
      if (p.id) break;
    }
    return bits.join(' > ');
  };
  const say = (el, how, over) => found.push(
    `${name(el)} "${(el.textContent || el.value || '').trim().slice(0, 40)}" ${how} by ${Math.round(over)} px`);
  const check = (el, r) => {
    if (r.width < 1 || r.height < 1) return;
    let left = r.left, right = r.right;
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const ox = getComputedStyle(a).overflowX;
      if (ox === 'visible') continue;
      const box = a.getBoundingClientRect();
      if (ox === 'auto' || ox === 'scroll') {  // it scrolls: only the box has to fit
        left = Math.max(left, box.left); right = Math.min(right, box.right); continue;
      }
      const over = Math.max(right - box.right, box.left - left);
      if (over > 1) { say(el, `cut off by ${name(a)}`, over); return; }
    }
    const over = Math.max(right - W, -left);
    if (over > 1) say(el, 'past the window', over);
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || !el || ['SCRIPT', 'STYLE'].includes(el.tagName) || !shown(el)) continue;
    range.selectNodeContents(n);
    check(el, range.getBoundingClientRect());
  }
  for (const e of document.body.querySelectorAll(
      'img, canvas, svg:not(svg svg), video, input, textarea, select, button')) {
    if (e.type === 'hidden' || !shown(e)) continue;
    check(e, e.getBoundingClientRect());
    if (e.tagName === 'INPUT' && ['text', 'number', 'search'].includes(e.type)
        && e.scrollWidth > e.clientWidth + 1) say(e, 'cut off by its own box', e.scrollWidth - e.clientWidth);
  }
  for (const plot of document.querySelectorAll('.js-plotly-plot')) {
    if (!shown(plot)) continue;
    const labels = [...plot.querySelectorAll(
        '.infolayer .annotation-text, .xtick text, .ytick text, .g-gtitle text, .legendtext')]
      .filter(e => shown(e) && e.textContent.trim())
      .map(e => [e, e.getBoundingClientRect()]);
    labels.forEach(([a, ra], i) => labels.slice(i + 1).forEach(([b, rb]) => {
      const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
      const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
      if (w > 1 && h > 1) found.push(
        `${name(plot)}: "${a.textContent.trim()}" lies on "${b.textContent.trim()}"`);
    }));
  }
  return found;
}"""

# The texts a reader meets on the page: text nodes (HTML and SVG) outside code, placeholders and
# tooltips (title, plotly's data-title, an SVG <title>); screen-reader labels apart.
TEXTS = """() => {
  const shown = (e) => {
    for (let a = e; a && a.nodeType === 1; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.display === 'none' || s.visibility !== 'visible' || a.id === 'js-plotly-tester') return false;
    }
    return true;
  };
  const code = (e) => e.closest('.cm-editor, pre, code, .katex, math');
  const seen = [], read = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || !el || ['SCRIPT', 'STYLE'].includes(el.tagName)) continue;
    if (el.closest('svg') && el.tagName.toLowerCase() === 'title') {
      if (shown(el.closest('svg'))) seen.push(n.textContent);  // an SVG tooltip
    } else if (!code(el) && shown(el)) seen.push(n.textContent);
  }
  for (const e of document.body.querySelectorAll('[placeholder], [title], [data-title], [aria-label]')) {
    if (code(e) || !shown(e)) continue;
    for (const a of ['placeholder', 'title', 'data-title']) if (e.getAttribute(a)) seen.push(e.getAttribute(a));
    if (e.getAttribute('aria-label')) read.push(e.getAttribute('aria-label'));
  }
  return {seen: seen.join('\\n'), read: read.join('\\n')};
}"""


def english_words(text: str, tab_terms: set[str] = frozenset()) -> set[str]:
    """Distinct English words in ``text`` that are not technical terms (the Chinese tour's
    allow-list, single letters, subscripted symbols, exception names)."""
    words = set(re.findall(r"(?<![0-9A-Za-z])[A-Za-z][A-Za-z_]*(?:['’][A-Za-z]+)*(?![0-9A-Za-z])",
                           text))
    return {w for w in words if w not in ALLOWED and w not in NAMES and w not in tab_terms
            and not re.fullmatch(r"[a-zA-Z]\d*|[A-Za-z]+_\w+|[A-Za-z]*Error", w)}


def settle(page, ms: int = 1200) -> None:
    """Let plots redraw at their final size (plotly relayouts after the panel opens)."""
    page.wait_for_timeout(ms)


def use(page, zh: bool) -> str:
    """Use the open tab as a learner would, with the smallest work that draws its outputs;
    the tab's key (for its own terms)."""
    panel = page.locator("[role=tabpanel]:visible")
    has = lambda sel: panel.locator(sel).count() > 0  # noqa: E731
    if has("#basics-compute"):
        page.locator("#basics-compute").click()
        expect(page.locator("#basics-output table")).to_be_visible(timeout=30_000)
        return "basics"
    if has("#pool-compute"):
        page.locator("#pool-compute").click()
        page.locator("#pool-learned .js-plotly-plot").wait_for(timeout=30_000)
        return "pooling"
    if has("#mh-compute"):
        page.locator("#mh-compute").click()
        page.locator("#mh-grid .js-plotly-plot").wait_for(timeout=30_000)
        return "multihead"
    if has("#pe-show"):
        page.locator("#pe-show").click()
        page.locator("#pe-perm-run").click()
        page.locator("#pe-perm table").wait_for(timeout=30_000)
        return "positional"
    if has("#train-start"):  # two heads, one step: the head grid of issue 26, item 9
        page.locator("input[aria-label='%s']:visible" % ("头数" if zh else "Heads")).fill("2")
        page.locator("#train-steps input").fill("1")
        page.locator("#train-start").click()
        expect(page.locator("#train-status")).to_contain_text("完成" if zh else "Done",
                                                              timeout=120_000)
        head = "第 1 层 · 第 {} 头" if zh else "layer 1 · head {}"
        expect(page.locator("#train-maps")).to_contain_text(head.format(2), timeout=30_000)
        expect(page.locator("#train-maps")).not_to_contain_text(head.format(3))
        return "train"
    if has("#cx-run"):
        page.locator("#cx-plot .js-plotly-plot").wait_for(timeout=90_000)  # measured on load
        return "complexity"
    if has("#ex-submit"):  # the starter: every test fails, with its message
        page.locator("#ex-submit").click()
        expect(page.locator("#ex-score")).to_contain_text("得分" if zh else "Score",
                                                          timeout=90_000)
        page.locator("#ex-tests .virtual-row").first.wait_for(timeout=20_000)
        return "exercises"
    if has("#progress-refresh"):  # the submission above, in both tables
        page.locator("#progress-refresh").click()
        page.locator("#progress-history .virtual-row").first.wait_for(timeout=20_000)
        return "progress"
    return "instructor"  # the test app has no instructor password: its notice


@pytest.fixture(scope="module")
def tours(browser, app_url, app_gradebook):
    """tour(locale): each tab's name, what does not fit, and its English words, measured once
    per locale on a phone after using the tab."""
    done: dict[str, list[dict]] = {}

    def tour(locale: str) -> list[dict]:
        if locale not in done:
            zh = locale.startswith("zh")
            page = open_page(browser, app_url, locale, *PHONE)
            page.locator("#basics-heatmap .js-plotly-plot").wait_for(timeout=60_000)
            tabs = page.get_by_role("tab")
            results = []
            for i in range(tabs.count()):
                name = tabs.nth(i).inner_text().strip()
                tabs.nth(i).click()
                settle(page)
                key = use(page, zh)
                settle(page)
                texts = page.evaluate(TEXTS)
                terms = EXERCISE_TERMS if key == "exercises" else set()
                results.append({"tab": name, "misfits": page.evaluate(FIT),
                                "seen": english_words(texts["seen"], terms),
                                "read": english_words(texts["read"], terms)})
            page.context.close()
            done[locale] = results
        return done[locale]

    return tour


@pytest.mark.parametrize("locale", ["zh-CN", "en-US"])
def test_every_tab_fits_a_phone(tours, locale):
    results = tours(locale)
    fit = [r["tab"] for r in results if not r["misfits"]]
    print(f"\n390 px, {locale}: {len(fit)} of {len(results)} tabs fit; per tab: "
          + ", ".join(f"{r['tab']} {len(r['misfits'])}" for r in results))
    for r in results:
        for m in r["misfits"]:
            print(f"  {r['tab']}: {m}")
    assert len(results) >= 9
    assert len(fit) == len(results), {r["tab"]: r["misfits"] for r in results if r["misfits"]}


def test_the_chinese_page_keeps_few_english_words(tours):
    results = tours("zh-CN")
    print("\nEnglish words on the zh-CN page, per tab (seen; read aloud): "
          + ", ".join(f"{r['tab']} {len(r['seen'])}; {len(r['read'])}" for r in results))
    for r in results:
        print(f"  {r['tab']}: seen {sorted(r['seen'])}; read aloud {sorted(r['read'])}")
    over = {r["tab"]: sorted(r["seen"] | r["read"]) for r in results
            if max(len(r["seen"]), len(r["read"])) > MAX_ENGLISH_WORDS}
    assert not over, f"English words on the Chinese page (put them in the catalogue): {over}"


@pytest.mark.parametrize("locale", ["zh-CN", "en-US"])
def test_a_train_settings_error_shows_under_the_settings(browser, app_url, locale):
    """Item 9: Train's input error appeared 380-600 px below the box that caused it, past the
    link and four buttons; on a phone the status line now comes right under the settings."""
    page = open_page(browser, app_url, locale, *PHONE)
    page.get_by_role("tab", name="训练" if locale == "zh-CN" else "Train").click()
    page.locator("#train-steps input").fill("0")
    page.locator("#train-start").click()
    status = page.locator("#train-status")
    expect(status).to_contain_text("5000", timeout=30_000)  # "from 1 to 5000, got 0"
    box = page.locator("#train-steps").bounding_box()
    said = status.bounding_box()
    assert 0 <= said["y"] - (box["y"] + box["height"]) < 150, (box, said)  # was 377 px
    assert said["y"] < page.locator("#train-start").bounding_box()["y"]
    page.context.close()
