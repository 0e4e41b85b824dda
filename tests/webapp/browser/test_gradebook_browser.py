"""The gradebook pages in Debian's chromium: work belongs to the browser, not to the typed name.

Each browser context is a separate browser (its own localStorage): alice, mallory, and alice
again on another machine with her recovery code.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("playwright", reason="pip install playwright pytest-playwright")
from browser_support import needs_chromium  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

pytestmark = needs_chromium
REPO = Path(__file__).resolve().parents[3]
FIRST = "manual-attention"  # the exercise the page opens on
SHOWN = "1. Attention by hand"  # how My progress names it (titles, not ids)


@pytest.fixture
def book(app_url, tmp_path):
    """A fresh gradebook swapped into the running app for one test (with generous limits)."""
    import app
    from gradebook import open_gradebook
    from webapp.serving.limits import Limits
    from webapp.serving.settings import ServingSettings

    submitter = app.LAB.submitter
    fresh = open_gradebook(f"sqlite:///{tmp_path / 'gb.sqlite3'}")
    saved = (submitter.use_gradebook(fresh), submitter.serving.limits)
    submitter.serving.limits = Limits.in_memory(ServingSettings(rate_limit=100))
    yield fresh
    submitter.use_gradebook(saved[0])
    submitter.serving.limits = saved[1]
    fresh.close()


@pytest.fixture
def new_browser(browser, browser_context_args):
    """Fresh browser contexts (separate localStorage each), closed after the test."""
    made = []

    def make():
        context = browser.new_context(**browser_context_args)
        made.append(context)
        return context.new_page()

    yield make
    for context in made:
        context.close()


def set_name(page, name: str) -> None:
    box = page.locator("#who-name textarea, #who-name input").first
    box.fill(name)
    box.press("Enter")
    expect(page.locator("#who-status")).to_contain_text(f"{name} (guest)", timeout=20_000)


def open_progress(page) -> None:
    page.get_by_role("tab", name="My progress").click()
    page.locator("#progress-refresh").click()


def load(page, sub_id: int) -> None:
    pick = page.locator("#progress-pick textarea, #progress-pick input").first
    pick.fill(str(sub_id))
    page.locator("#progress-load").click()


def own_numbers(page, reference: str) -> str:
    """``reference`` with the page's learner's own Part A numbers, read from their statement as
    they read it (exercise 1 grades each learner on their own Q and V: grader/variants.py)."""
    import ast

    from grader import variants

    statement = page.locator("#ex-statement")
    expect(statement).to_contain_text("V = [[", timeout=20_000)
    text = statement.inner_text()
    q = re.findall(r"(?m)^Q = K = (\[\[.*?\]\])", text, re.S)[-1]  # the last: the lesson's comes first
    v = re.findall(r"(?m)^V = (\[\[.*?\]\])", text, re.S)[-1]
    values = {name: [[float(x) for x in row] for row in ast.literal_eval(m)] for name, m in (("Q", q), ("V", v))}
    return variants.render(reference, values)


def test_a_typed_name_never_opens_someone_elses_work(new_browser, app_url, book):
    reference = (REPO / "hidden" / FIRST / "reference.py").read_text(encoding="utf-8")
    marker = "# alice's own solution 9321"

    # 1. alice submits a full-mark solution from her browser.
    alice = new_browser()
    alice.goto(app_url)
    set_name(alice, "alice")
    alice.get_by_role("tab", name="Exercises").click()
    reference = own_numbers(alice, reference)
    editor = alice.locator("#ex-code .cm-content")
    editor.click()
    alice.keyboard.press("Control+A")
    alice.keyboard.insert_text(f"{marker}\n{reference}")
    alice.locator("#ex-submit").click()
    expect(alice.locator("#ex-score")).to_contain_text("Score", timeout=60_000)
    (row,) = book.all_rows()
    assert row.learner == "alice (guest)" and row.score == row.max_score > 0
    assert row.code.startswith(marker) and row.learner_id.startswith("g:")

    # 2. mallory types "alice" in another browser: no history, and no submission loads.
    mallory = new_browser()
    mallory.goto(app_url)
    set_name(mallory, "alice")
    open_progress(mallory)
    expect(mallory.locator("#progress-history")).to_be_visible(timeout=20_000)
    mallory.wait_for_timeout(1000)
    expect(mallory.locator("#progress-history")).not_to_contain_text(SHOWN)
    expect(mallory.locator("#progress-best")).not_to_contain_text(SHOWN)
    for sub_id in (row.id - 1, row.id, row.id + 1):
        load(mallory, sub_id)
        expect(mallory.locator("#progress-status")).to_contain_text("not in your history",
                                                                    timeout=20_000)
    mallory.get_by_role("tab", name="Exercises").click()
    expect(mallory.locator("#ex-code")).to_contain_text("def ", timeout=20_000)  # the starter
    expect(mallory.locator("#ex-code")).not_to_contain_text("9321")

    # 3. alice asks for her recovery code (only her page shows it) ...
    open_progress(alice)
    expect(alice.locator("#progress-history")).to_contain_text(SHOWN, timeout=20_000)
    alice.locator("#progress-recovery").get_by_text("Continue in another browser").click()
    alice.locator("#recovery-new").click()
    code_box = alice.locator("#recovery-code textarea, #recovery-code input").first
    expect(code_box).to_have_value(re.compile(r"^[0-9A-Z]{5}(-[0-9A-Z]{5}){3}$"), timeout=20_000)
    code = code_box.input_value()
    assert code not in repr(book._query("SELECT * FROM recovery_codes"))  # stored as a hash only

    # ... and enters it in a third browser, which then sees and reloads her work.
    laptop = new_browser()
    laptop.goto(app_url)
    expect(laptop.locator("#who-status")).to_contain_text("anonymous", timeout=20_000)
    open_progress(laptop)
    laptop.locator("#progress-recovery").get_by_text("Continue in another browser").click()
    entry = laptop.locator("#recovery-enter textarea, #recovery-enter input").first
    entry.fill(code.lower())  # retyped by hand
    laptop.locator("#recovery-use").click()
    expect(laptop.locator("#recovery-status")).to_contain_text("alice (guest)", timeout=20_000)
    expect(laptop.locator("#progress-history")).to_contain_text(SHOWN, timeout=20_000)
    load(laptop, row.id)
    expect(laptop.locator("#ex-code")).to_contain_text("9321", timeout=20_000)
    laptop.reload()  # the link is kept: this browser is alice's from now on
    open_progress(laptop)
    expect(laptop.locator("#progress-history")).to_contain_text(SHOWN, timeout=20_000)
    # mallory still sees nothing after all this.
    open_progress(mallory)
    mallory.wait_for_timeout(1000)
    expect(mallory.locator("#progress-history")).not_to_contain_text(SHOWN)


def test_the_name_and_key_survive_a_reload(page, app_url, book):
    page.goto(app_url)
    set_name(page, "Browser Learner")
    # The label and the learner key are kept in the browser (localStorage): wait until both are.
    page.wait_for_function(
        "() => !!localStorage.getItem('transformer-lab-learner')"
        " && !!localStorage.getItem('transformer-lab-key')", timeout=20_000)
    page.reload()
    name = page.locator("#who-name textarea, #who-name input").first
    expect(name).to_have_value("Browser Learner", timeout=20_000)
    expect(page.locator("#who-status")).to_contain_text("this browser", timeout=20_000)
