"""Gradebook glue and views without a server: names, refusals, tables, the instructor's password."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import gradio as gr
import pytest

from app_support import gradebook_glue as glue
from app_support import gradebook_views as views
from grader.gradebook import BusyGate, RateLimiter, Submission, open_gradebook

REPO = Path(__file__).resolve().parents[2]


def row(learner: str, exercise: str, score: float, top: float = 10.0, code: str = "x = 1\n",
        when: str = "2026-08-01T12:00:00+00:00") -> Submission:
    tests = [{"name": f"t{i}", "passed": i < score, "score": 1.0 if i < score else 0.0}
             for i in range(int(top))]  # fmt: skip
    return Submission(learner=learner, exercise=exercise, code=code, score=score, max_score=top,
                      tests=tests, submitted_at=when)  # fmt: skip


@pytest.fixture
def book(tmp_path):
    """A fresh gradebook; the glue's process-wide state is put back afterwards (the app shares it)."""
    state = glue._STATE
    saved = (state.book, state.limiter, state.gate)
    with open_gradebook(f"sqlite:///{tmp_path / 'gb.sqlite3'}") as b:
        yield b
    state.book, state.limiter, state.gate = saved


@pytest.mark.parametrize(("typed", "signed_in", "stored"),
                         [("Ada", False, "Ada (guest)"), ("  Ada   Lovelace ", False, "Ada Lovelace (guest)"),
                          ("Ada (guest)", False, "Ada (guest)"), ("ada", True, "ada"),
                          (None, False, "anonymous"), ("   ", False, "anonymous"),
                          ("ＡＤＡ", False, "ADA (guest)")])  # fmt: skip
def test_learner_name_marks_typed_names_as_guests(typed, signed_in, stored):
    assert glue.learner_name(typed, signed_in) == stored


def test_learner_name_refuses_odd_names_and_a_suffix_past_the_cap():
    with pytest.raises(ValueError, match="not allowed"):
        glue.learner_name("=HYPERLINK(1)")
    glue.learner_name("a" * 64, signed_in=True)  # a real account name at the cap is fine
    with pytest.raises(ValueError, match="at most 64"):
        glue.learner_name("a" * 60)  # 60 + len(" (guest)") = 68


def test_anonymous_learners_are_keyed_by_session():
    assert glue.rate_key("anonymous", "s1") != glue.rate_key("anonymous", "s2")
    assert glue.rate_key("Ada (guest)", "s1") == glue.rate_key("Ada (guest)", "s2")


def test_profile_wins_over_a_typed_name():
    from app_pages import identity

    profile = gr.OAuthProfile({"preferred_username": "ada", "name": "Ada", "picture": "",
                               "profile": ""})  # fmt: skip
    assert identity.resolve("Mallory", profile) == ("ada", True)
    assert identity.stored_learner("Mallory", profile) == "ada"
    assert identity.stored_learner("Mallory", None) == "Mallory (guest)"


def test_refusals_store_nothing_and_never_reach_the_grader(book, monkeypatch):
    import grader.api

    def boom(*a, **k):  # any grading here would be a bug: refusals come first
        raise AssertionError("the grader was called")

    monkeypatch.setattr(grader.api, "grade", boom)
    glue.configure(book=book, limiter=RateLimiter(1, 60), gate=BusyGate(1, 1))
    out = glue.grade_and_record("causal-mask", "", "Ada", "s")
    assert (out["refused"], out["reason"], out["extra_data"]["stored"]) == (True, "empty", False)
    assert out["score"] == out["max_score"] == 0 and out["tests"] == []
    assert glue.grade_and_record("nope", "x = 1", "Ada", "s")["reason"] == "unknown_exercise"
    glue.limiter().check("name:Ada (guest)")  # uses Ada's one allowance
    late = glue.grade_and_record("causal-mask", "x = 1", "Ada", "s")
    assert late["reason"] == "rate_limited" and 1 <= late["retry_after_s"] <= 60
    assert "try again in" in glue.refusal_text(late, "en")
    assert "秒后再试" in glue.refusal_text(late, "zh")
    gate = BusyGate(1, 1)
    gate.enter()
    glue.configure(gate=gate)
    busy = glue.grade_and_record("causal-mask", "x = 1", "Bob", "s")
    assert busy["reason"] == "busy" and busy["retry_after_s"] >= 1
    assert book.count() == 0


def test_best_and_history_frames_match_the_rows(book):
    ids = [book.record(row("Ada (guest)", "causal-mask", s, when=f"2026-08-01T12:0{i}:00+00:00"))
           for i, s in enumerate([3, 9, 9, 5])]  # fmt: skip
    book.record(row("Ada (guest)", "manual-attention", 2, top=4))
    book.record(row("Bob (guest)", "causal-mask", 10))  # someone else's: never shown to Ada
    best = views.best_frame(book, "Ada (guest)")
    # By hand: causal-mask best 9 first reached by the 2nd submission, 4 attempts; manual 2/4.
    assert best.values.tolist() == [
        ["causal-mask", 9.0, 10.0, 4, ids[1], "2026-08-01 12:03:00 UTC"],
        ["manual-attention", 2.0, 4.0, 1, ids[-1] + 1, "2026-08-01 12:00:00 UTC"]]
    hist = views.history_frame(book, "Ada (guest)")
    assert hist["#"].tolist() == [ids[-1] + 1, *reversed(ids)]  # newest first, Ada only
    assert hist.iloc[1]["tests passed"] == "5/10"
    zh = views.history_frame(book, "Ada (guest)", "zh")
    assert list(zh.columns)[:3] == ["#", "练习", "得分"]
    assert views.best_frame(book, "anonymous").empty and views.history_frame(book, None).empty


def test_only_the_owner_can_reload_a_submission(book):
    mine = book.record(row("Ada (guest)", "causal-mask", 3, code="print('mine')\n"))
    theirs = book.record(row("Bob (guest)", "causal-mask", 3, code="print('theirs')\n"))
    assert views.own_submission(book, "Ada (guest)", f" {mine} ") == ("causal-mask", "print('mine')\n")
    for who, sub_id, expected in [("Ada (guest)", theirs, "not in your history"),
                                  ("Ada (guest)", 999, "not in your history"),
                                  ("Ada (guest)", "two", "submission number"),
                                  ("anonymous", mine, "anonymous")]:  # fmt: skip
        with pytest.raises(ValueError, match=expected):
            views.own_submission(book, who, sub_id)


def test_instructor_view_needs_the_password(book, monkeypatch):
    from app_pages import instructor

    monkeypatch.setattr(instructor, "_TRIES", RateLimiter(3, 60))
    glue.configure(book=book)
    book.record(row("Ada (guest)", "causal-mask", 9))
    book.record(row("Bob (guest)", "manual-attention", 4, top=4))
    monkeypatch.delenv(views.PASSWORD_ENV, raising=False)
    assert not views.password_set() and not views.password_ok("")
    frame, path, text = instructor.scores("", False, "s1")
    assert frame is None and path is None and "disabled" in text
    monkeypatch.setenv(views.PASSWORD_ENV, "s3cret")
    frame, path, text = instructor.scores("wrong", False, "s1")
    assert frame is None and "Wrong password" in text
    frame, path, text = instructor.scores("s3cret", False, "s1")
    assert frame.values.tolist() == [
        ["Ada (guest)", "causal-mask", 9.0, 10.0, 1, 1, "2026-08-01 12:00:00 UTC", "2026-08-01 12:00:00 UTC"],
        ["Bob (guest)", "manual-attention", 4.0, 4.0, 1, 2, "2026-08-01 12:00:00 UTC", "2026-08-01 12:00:00 UTC"]]
    table = list(csv.DictReader(io.StringIO(Path(path).read_text(encoding="utf-8"))))
    assert {"learner", "exercise", "score", "max_score", "submitted_at"} <= set(table[0])
    assert [(r["learner"], float(r["score"])) for r in table] == [("Ada (guest)", 9.0),
                                                                  ("Bob (guest)", 4.0)]
    assert "2 submissions from 2 learners" in text
    for _ in range(3):  # guessing is rate-limited per session
        instructor.scores("guess", False, "s2")
    assert "Too many tries" in instructor.scores("s3cret", False, "s2")[2]


def test_pages_build_without_a_password_or_oauth(monkeypatch):
    from app_pages import identity, instructor, progress

    monkeypatch.delenv(views.PASSWORD_ENV, raising=False)
    monkeypatch.delenv("OAUTH_CLIENT_ID", raising=False)
    with gr.Blocks() as demo:
        who = identity.build()
        with gr.Tab("p"):
            progress.build()
        with gr.Tab("i"):
            instructor.build()
        ex, code = gr.Dropdown(["a"]), gr.Code()
        progress.connect_editor(ex, code)
    ids = {c.get("props", {}).get("elem_id") for c in demo.config["components"]}
    assert who.login is None  # no gr.LoginButton off a Space: Gradio would need an HF token
    assert "instructor-disabled" in ids and "instructor-password" not in ids
    assert {"progress-load", "progress-history", "who-name"} <= ids


def test_admission_settings_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("LAB_RATE_LIMIT", "3")
    monkeypatch.setenv("LAB_GRADER_WORKERS", "2")
    cfg = glue.GlueConfig.from_env()
    assert (cfg.per_learner, cfg.window_s, cfg.slots) == (3, 60.0, 2)
    monkeypatch.setenv("LAB_GRADING_SLOTS", "4")  # an explicit slot count wins
    assert glue.GlueConfig.from_env().slots == 4
    monkeypatch.setenv("LAB_RATE_WINDOW_S", "soon")
    with pytest.raises(ValueError, match="LAB_RATE_WINDOW_S must be a number"):
        glue.GlueConfig.from_env()


def test_uploads_are_checked_before_they_reach_the_editor(tmp_path):
    from app_pages.exercises import read_upload

    png = tmp_path / "solution.py"
    png.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    broken = tmp_path / "broken.ipynb"
    broken.write_text('{"cells": [{"cell_type": "code", "source": "x', encoding="utf-8")
    good = tmp_path / "good.ipynb"
    good.write_text('{"cells": [{"cell_type": "code", "id": "a", "source": "x = 2", "metadata": {},'
                    ' "outputs": [], "execution_count": null}], "metadata": {}, "nbformat": 4,'
                    ' "nbformat_minor": 5}', encoding="utf-8")  # fmt: skip
    with pytest.raises(ValueError, match="binary"):
        read_upload(str(png))
    with pytest.raises(ValueError, match="damaged"):
        read_upload(str(broken))
    assert read_upload(str(good)) == "x = 2\n"


def test_wait_gate_admits_by_expected_wait():
    gate = glue.WaitGate(max_in_flight=10, slots=2, max_wait_s=1.0, typical_s=0.5)
    # By hand: the k-th newcomer waits ceil((k - 2 + 1) / 2) rounds of 0.5 s; 1.0 s still fits.
    assert [gate.expected_wait(k) for k in range(7)] == [0, 0, 0.5, 0.5, 1.0, 1.0, 1.5]
    assert [gate.enter()[0] for _ in range(7)] == [True] * 6 + [False]
    ok, retry = gate.enter()
    assert not ok and retry == 1.0  # one 0.5 s round brings 1.5 s back under 1.0 s; at least 1 s
    gate.leave(10.0)  # one submission ran to its wall limit: the median does not move
    assert gate.typical_s == 0.5 and gate.enter()[0]
    for _ in range(5):
        gate.leave(10.0)  # most recent gradings slow: the estimate follows
    assert gate.typical_s == 10.0 and gate.in_flight == 1
    assert gate.enter() == (True, 0.0)  # a free slot is always taken, however slow the grader
    ok, retry = gate.enter()  # but nobody queues behind a 10 s grading with 1 s of budget
    assert not ok and retry == pytest.approx(10.0)  # one 10 s round: then a slot is free
    for _ in range(gate.in_flight):
        gate.leave()
    with pytest.raises(RuntimeError, match="more often"):
        gate.leave()
    capped = glue.WaitGate(max_in_flight=1, slots=4, max_wait_s=100)
    assert capped.enter()[0] and not capped.enter()[0]  # the hard cap holds too
