"""The gradebook through the running app's `grade` endpoint: rows stored, limits, refusals."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path

import pytest
from gradio_client.exceptions import AppError

from grader.gradebook import BusyGate, RateLimiter, grader_version, open_gradebook

REPO = Path(__file__).resolve().parents[2]
EXERCISE = "causal-mask"


def reference(exercise_id: str = EXERCISE) -> str:
    return (REPO / "hidden" / exercise_id / "reference.py").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def book(tmp_path_factory, app_url):
    """A fresh SQLite gradebook swapped into the running app for this module, then restored."""
    from app_support import gradebook_glue as glue

    before = glue._STATE.ensure()
    saved = (before.book, before.limiter, before.gate)
    fresh = open_gradebook(f"sqlite:///{tmp_path_factory.mktemp('gradebook') / 'gb.sqlite3'}")
    glue.configure(book=fresh, limiter=RateLimiter(100, 60), gate=BusyGate(16, 1))
    yield fresh
    glue.configure(book=saved[0], limiter=saved[1], gate=saved[2])
    fresh.close()


@pytest.fixture
def limits(book):
    """Set the app's limiter / gate for one test; a generous limiter comes back afterwards."""
    from app_support import gradebook_glue as glue

    yield glue.configure
    glue.configure(limiter=RateLimiter(100, 60), gate=BusyGate(16, 1))


def test_grade_signature_keeps_old_callers(client):
    api = client.view_api(print_info=False, return_format="dict")["named_endpoints"]["/grade"]
    params = api["parameters"]
    # Request and OAuthProfile are injected by Gradio, never asked of API callers.
    assert [p["parameter_name"] for p in params] == ["exercise_id", "code", "learner"]
    assert [p["parameter_has_default"] for p in params] == [False, False, True]


def test_grade_with_a_learner_stores_a_row_with_every_field(client, book):
    code = reference()
    before = datetime.now(timezone.utc)
    out = client.predict(EXERCISE, code, "Ada Test", api_name="/grade")
    after = datetime.now(timezone.utc)
    assert out["score"] == out["max_score"] > 0
    extra = out["extra_data"]
    assert extra["stored"] is True and extra["learner"] == "Ada Test (guest)"
    row = book.get(extra["submission_id"])
    assert row is not None
    assert (row.learner, row.exercise, row.status) == ("Ada Test (guest)", EXERCISE, "graded")
    assert row.code.rstrip("\n") == code.rstrip("\n")
    assert (row.score, row.max_score) == (out["score"], out["max_score"])
    # Per-test results: the same test names, in order, all passed, points adding up.
    assert [t["name"] for t in row.tests] == [t["name"] for t in out["tests"]]
    assert all(t["passed"] for t in row.tests)
    assert sum(t["score"] for t in row.tests) == pytest.approx(row.score)
    assert before <= datetime.fromisoformat(row.submitted_at) <= after
    assert row.grader_version == grader_version() == extra["grader_version"]


def test_two_positional_arguments_still_grade_and_store_anonymously(client, book):
    n = book.count("anonymous")
    out = client.predict(EXERCISE, "x = 1", api_name="/grade")
    assert out["score"] == 0 < out["max_score"]
    assert book.count("anonymous") == n + 1
    assert book.get(out["extra_data"]["submission_id"]).learner == "anonymous"


def test_rate_limit_says_when_to_retry_and_stores_nothing(client, book, limits):
    limits(limiter=RateLimiter(per_learner=2, window_s=60))
    for _ in range(2):
        client.predict(EXERCISE, "x = 1", "Rate Tester", api_name="/grade")
    with pytest.raises(AppError, match="rate_limited") as err:
        client.predict(EXERCISE, "x = 1", "Rate Tester", api_name="/grade")
    wait = int(re.search(r"try again in (\d+) s", str(err.value)).group(1))
    assert 1 <= wait <= 60
    assert book.count("Rate Tester (guest)") == 2
    # The limit is per learner: somebody else is still welcome.
    assert client.predict(EXERCISE, "x = 1", "Other Tester", api_name="/grade")["max_score"] > 0


def test_anonymous_learners_are_limited_per_session(app_url, book, limits):
    from gradio_client import Client

    limits(limiter=RateLimiter(per_learner=1, window_s=60))
    first, second = Client(app_url, verbose=False), Client(app_url, verbose=False)
    first.predict(EXERCISE, "x = 1", api_name="/grade")
    with pytest.raises(AppError, match="rate_limited"):
        first.predict(EXERCISE, "x = 1", api_name="/grade")
    second.predict(EXERCISE, "x = 1", api_name="/grade")  # another browser: its own allowance


def test_busy_grader_answers_at_once_with_a_retry_time(client, book, limits):
    gate = BusyGate(max_in_flight=1, slots=1, typical_s=3.0)
    limits(gate=gate)
    n = book.count()
    assert gate.enter() == (True, 0.0)  # someone else's grading holds the only place
    try:
        with pytest.raises(AppError, match=r"busy: .*retry in \d+ s"):
            client.predict(EXERCISE, reference(), "Busy Tester", api_name="/grade")
    finally:
        gate.leave()
    assert book.count() == n


@pytest.mark.parametrize(
    ("exercise", "code", "learner", "reason"),
    [(EXERCISE, "", "Bad Input", "empty"), (EXERCISE, "  \n\t\n", "Bad Input", "empty"),
     (EXERCISE, "x = 1  # padding\n" * 62_000, "Bad Input", "too_large"),  # ~1 MB
     (EXERCISE, "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "Bad Input", "binary"),
     (EXERCISE, '{"cells": [{"cell_type": "code", "source": "x', "Bad Input", "bad_notebook"),
     ("no-such-exercise", "x = 1\n", "Bad Input", "unknown_exercise"),
     (EXERCISE, "x = 1\n", "=cmd|' /C calc'!A0", "bad_name"),
     (EXERCISE, "x = 1\n", "a" * 70, "bad_name")],
)  # fmt: skip
def test_bad_input_gives_a_clear_message_and_stores_nothing(client, book, exercise, code,
                                                            learner, reason):  # fmt: skip
    n = book.count()
    with pytest.raises(AppError, match=reason) as err:
        client.predict(exercise, code, learner, api_name="/grade")
    text = str(err.value)
    assert re.search(r"[\u4e00-\u9fff]", text)  # the Chinese line comes with the English one
    assert "Traceback" not in text
    assert book.count() == n


def test_progress_and_instructor_tabs_are_in_the_app(app_url):
    import app

    config = app.demo.config
    ids = {c.get("props", {}).get("elem_id") for c in config["components"]}
    assert {"who-name", "progress-history", "progress-load"} <= ids
    tabs = {c["props"].get("id") for c in config["components"] if c["type"] == "tabitem"}
    assert {"exercises", "progress", "instructor"} <= tabs
