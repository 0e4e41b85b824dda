"""The gradebook pages in Debian's chromium: a remembered name, history, reload into the editor."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright", reason="pip install playwright pytest-playwright")
from browser_support import needs_chromium  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

pytestmark = needs_chromium


@pytest.fixture
def stored(app_url, tmp_path):
    """One earlier submission by "Browser Learner (guest)", in a fresh gradebook for this test."""
    from app_support import gradebook_glue as glue
    from grader.gradebook import Submission, open_gradebook

    state = glue._STATE.ensure()
    saved = state.book
    book = open_gradebook(f"sqlite:///{tmp_path / 'gb.sqlite3'}")
    glue.configure(book=book)
    code = "# reloaded from my history 4711\nx = 1\n"
    sub_id = book.record(Submission(learner="Browser Learner (guest)", exercise="causal-mask",
                                    code=code, score=3, max_score=12, tests=[]))  # fmt: skip
    yield sub_id
    state.book = saved
    book.close()


def test_name_history_and_reload_into_the_editor(page, app_url, stored):
    page.goto(app_url)
    name = page.locator("#who-name textarea, #who-name input").first
    name.fill("Browser Learner")
    name.press("Enter")
    expect(page.locator("#who-status")).to_contain_text("Browser Learner (guest)", timeout=20_000)
    page.reload()  # the name is kept in the browser (localStorage)
    expect(name).to_have_value("Browser Learner", timeout=20_000)

    page.get_by_role("tab", name="My progress").click()
    page.locator("#progress-refresh").click()
    expect(page.locator("#progress-history")).to_contain_text("causal-mask", timeout=20_000)
    expect(page.locator("#progress-best")).to_contain_text("causal-mask")
    pick = page.locator("#progress-pick textarea, #progress-pick input").first
    pick.fill(str(stored))
    page.locator("#progress-load").click()

    # The Exercises tab opens on that exercise with the stored code, not the starter.
    editor = page.locator("#ex-code")
    expect(editor).to_contain_text("reloaded from my history 4711", timeout=20_000)
    expect(page.locator("#ex-choose input")).to_have_value("5. Causal (look-ahead) mask · 因果（防窥视）掩码")
    page.wait_for_timeout(1500)  # a late starter reset would overwrite the editor by now
    expect(editor).to_contain_text("reloaded from my history 4711")


def test_someone_elses_submission_is_not_reloaded(page, app_url, stored):
    page.goto(app_url)
    page.get_by_role("tab", name="My progress").click()
    pick = page.locator("#progress-pick textarea, #progress-pick input").first
    pick.fill(str(stored))  # anonymous visitor: no history of their own
    page.locator("#progress-load").click()
    expect(page.locator("#progress-status")).to_contain_text("anonymous", timeout=20_000)
    page.get_by_role("tab", name="Exercises").click()
    expect(page.locator("#ex-code")).to_contain_text("def ", timeout=20_000)  # the starter
    expect(page.locator("#ex-code")).not_to_contain_text("4711")
