"""The Exercises page in Debian's chromium: a submission that has to wait shows its queue position
and an ETA (English and Chinese), then its score."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

import pytest

pytest.importorskip("playwright", reason="pip install playwright pytest-playwright")
from browser_support import needs_chromium  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

pytestmark = needs_chromium

WALL_S = 4.0  # the sleeper ahead of the browser holds the only slot this long
SLEEPER = "import time\ntime.sleep(30)\n"


@pytest.fixture
def one_slot(app_url):
    """One grading at a time, one trusted proxy hop and a WALL_S wall limit, restored afterwards."""
    import app
    from grader import api
    from webapp.serving.turns import TurnQueue

    serving = app.LAB.serving
    saved = (serving.grading, serving.settings)
    grader = api.default_grader()
    saved_wall = grader.max_wall_s
    q = TurnQueue(slots=1)
    serving.grading = q
    serving.settings = dataclasses.replace(serving.settings, forwarded_hops=1)
    grader.max_wall_s = WALL_S
    yield q
    grader.max_wall_s = saved_wall
    serving.grading, serving.settings = saved


def occupy(app_url: str, q) -> object:
    """Another learner's sleeper, from another address, holding the only grading slot."""
    from gradio_client import Client

    other = Client(app_url, verbose=False, headers={"X-Forwarded-For": "198.51.100.77"})
    job = other.submit("causal-mask", SLEEPER, "Sleeper", api_name="/grade")
    deadline = time.monotonic() + 10
    while q.snapshot()["running"] == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert q.snapshot()["running"] == 1
    return job


def submit_and_watch(page, app_url, q, waiting_text: str) -> None:
    page.goto(app_url)
    page.get_by_role("tab", name=waiting_text[0]).click()
    expect(page.locator("#ex-code")).to_contain_text("def ", timeout=20_000)  # the starter
    job = occupy(app_url, q)
    page.locator("#ex-submit").click()
    score = page.locator("#ex-score")
    expect(score).to_contain_text(waiting_text[1], timeout=int(WALL_S * 1000) - 500)
    page.screenshot(path=str(_artifact(f"queue-{waiting_text[2]}.png")))
    job.result(timeout=60)
    expect(score).not_to_contain_text(waiting_text[1], timeout=30_000)  # graded: the score shows
    expect(score).to_contain_text(waiting_text[3], timeout=30_000)


def _artifact(name: str):
    # Not `from conftest import ...`: with the whole suite collected, "conftest" may name
    # another folder's conftest module.
    artifacts = Path(__file__).resolve().parents[3] / "artifacts" / "app"
    artifacts.mkdir(parents=True, exist_ok=True)
    return artifacts / name


def test_a_waiting_submission_shows_its_queue_position(page, app_url, one_slot):
    submit_and_watch(page, app_url, one_slot, ("Exercises", "position 1 in the queue", "en", "Score:"))


@pytest.mark.browser_context_args(locale="zh-CN")
def test_the_queue_position_in_chinese(page, app_url, one_slot):
    submit_and_watch(page, app_url, one_slot, ("练习", "第 1 位", "zh", "得分"))
