"""Issue 12 in chromium: while another learner's run trains, a learner who presses Train on
custom settings sees their place in the training queue (and an ETA), and Stop gives it up.
The seconds to the position are printed (median of three presses); the issue's 1 s target is
for a quiet machine and is measured by scripts/classroom_load.py, not asserted here (the
project checks speed with benchmark scripts, never with timed tests on a shared machine)."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("playwright", reason="pip install playwright pytest-playwright")
from browser_support import needs_chromium  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parents[3] / "artifacts" / "app"
pytestmark = needs_chromium


def _other_learner_trains(stop: threading.Event, training: threading.Event, seed: int) -> None:
    """Another learner's real run (not in the cache: its own seed), through the page's path."""
    import app
    from webapp.serving.who import ClientKey
    from webapp.train.api import run_training
    from webapp.train.training import page_config

    # No positions: reversal never reaches the early-stop target, so it trains until stopped.
    config = page_config("reverse", heads=4, d_model=32, layers=1, d_ff=64, dropout=0.0, pe="none",
                         steps=5000, seed=seed)
    for msg, _ in run_training(app.LAB, config, stop=stop, client=ClientKey("other-learner", "10.9.9.9")):
        if "queued" not in msg:  # a streamed training update: it holds the training slot
            training.set()


def test_custom_run_sees_its_queue_position_within_1s_while_another_trains(client, page):
    import app

    train_queue = app.LAB.serving.training  # the running app's training line
    rng = random.Random()
    stop, training = threading.Event(), threading.Event()
    other = threading.Thread(target=_other_learner_trains,
                             args=(stop, training, rng.randrange(10**6, 10**7)), daemon=True)
    page.goto(client.src if hasattr(client, "src") else client.url)
    page.get_by_role("tab", name="Train").click()
    page.locator("#train-start").wait_for()
    steps = rng.randrange(700, 4000)  # custom settings nobody trained: a cache miss
    page.locator("#train-steps input").fill(str(steps))
    other.start()
    try:
        assert training.wait(60), "the other learner's run never started training"
        assert train_queue.snapshot()["running"] >= 1, train_queue.snapshot()
        status = page.locator("#train-status")
        seen = []
        for attempt in range(3):  # the median of three presses: one figure on a shared machine
            t0 = time.monotonic()
            page.locator("#train-start").click()
            expect(status).to_contain_text("Waiting to train", timeout=10_000)
            seen.append(time.monotonic() - t0)
            text = status.inner_text()
            assert "position 1 in the queue" in text and "about" in text, text  # place, ETA
            if attempt == 0:
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / "train-queue-position.png"), full_page=True)
            page.locator("#train-stop").click()  # waiting is optional: Stop gives the place up
            expect(status).to_contain_text("Stopped while waiting", timeout=10_000)
        assert training.is_set() and other.is_alive()  # the other run trained all along
        median = sorted(seen)[1]
        print(f"queue position seen after {[round(s, 2) for s in seen]} s")
        assert median < 10.0, f"the queue position appeared after {seen} s (median {median:.2f})"
    finally:
        stop.set()
        other.join(60)
    assert not other.is_alive()
