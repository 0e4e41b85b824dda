"""Gradebook glue and views without a server: names, refusals, tables, the instructor's password."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import gradio as gr
import pytest
from lab_support import LAB

from gradebook import Submission, open_gradebook
from gradebook import identity as idm
from webapp.services import instructor_access as access
from webapp.services import submissions as glue
from webapp.serving.ratelimit import FailureLimiter
from webapp.serving.settings import ServingSettings
from webapp.serving.turns import TurnQueue
from webapp.serving.who import ClientKey
from webapp.serving.wing import Serving
from webapp.views import gradebook_tables as views
from webapp.views.exercise_list import exercise_title

REPO = Path(__file__).resolve().parents[3]
ADA, BOB = "g:" + "a" * 20, "g:" + "b" * 20  # two guests' opaque ids


def row(learner: str, exercise: str, score: float, top: float = 10.0, code: str = "x = 1\n",
        when: str = "2026-08-01T12:00:00+00:00", learner_id: str | None = None) -> Submission:
    tests = [{"name": f"t{i}", "passed": i < score, "score": 1.0 if i < score else 0.0}
             for i in range(int(top))]
    if learner_id is None:
        learner_id = {"Ada (guest)": ADA, "Bob (guest)": BOB}.get(learner)
    return Submission(learner=learner, exercise=exercise, code=code, score=score, max_score=top,
                      tests=tests, submitted_at=when, learner_id=learner_id)


def profile_of(username: str) -> gr.OAuthProfile:
    """What Gradio injects for a visitor signed in with Hugging Face (a mock of the sign-in)."""
    return gr.OAuthProfile({"preferred_username": username, "name": username.title(),
                            "picture": "", "profile": ""})


@pytest.fixture
def book(tmp_path):
    """A fresh gradebook in the tests' Lab (lab_support: what the pages read through
    LAB.submitter.book); the submitter's own book is put back afterwards (the tests share it)."""
    submitter = LAB.submitter
    with open_gradebook(f"sqlite:///{tmp_path / 'gb.sqlite3'}") as b:
        saved = submitter.use_gradebook(b)
        try:
            yield b
        finally:
            submitter.use_gradebook(saved)


@pytest.mark.parametrize(("typed", "signed_in", "stored"),
                         [("Ada", False, "Ada (guest)"), ("  Ada   Lovelace ", False, "Ada Lovelace (guest)"),
                          ("Ada (guest)", False, "Ada (guest)"), ("ada", True, "ada"),
                          (None, False, "anonymous"), ("   ", False, "anonymous"),
                          ("ＡＤＡ", False, "ADA (guest)")])
def test_learner_name_marks_typed_names_as_guests(typed, signed_in, stored):
    assert glue.learner_name(typed, signed_in) == stored


def test_learner_name_refuses_odd_names_and_a_suffix_past_the_cap():
    with pytest.raises(ValueError, match="not allowed"):
        glue.learner_name("=HYPERLINK(1)")
    glue.learner_name("a" * 64, signed_in=True)  # a real account name at the cap is fine
    with pytest.raises(ValueError, match="at most 64"):
        glue.learner_name("a" * 60)  # 60 + len(" (guest)") = 68


def test_anonymous_learners_are_keyed_by_session(book):
    assert glue.rate_key("anonymous", "s1") != glue.rate_key("anonymous", "s2")
    assert glue.rate_key("Ada (guest)", "s1") == glue.rate_key("Ada (guest)", "s2")
    anon = LAB.submitter.resolve_learner(None)  # an API caller without a name
    assert glue.rate_key(anon, "s1") != glue.rate_key(anon, "s2")
    guest = LAB.submitter.resolve_learner(idm.Claim("Ada", idm.new_browser_key()))
    assert glue.rate_key(guest, "s1") == glue.rate_key(guest, "s2") == f"id:{guest.id}"


def test_profile_wins_over_a_typed_name(book):
    from webapp.pages import sign_in

    key = idm.new_browser_key()
    me = sign_in.learner(LAB, "Mallory", key, profile_of("ada"))
    assert (me.id, me.label, me.kind) == ("hf:ada", "ada", "signed_in")
    guest = sign_in.learner(LAB, "Mallory", key, None)
    assert (guest.id, guest.label) == (idm.guest_id(key), "Mallory (guest)")


def test_a_guest_cannot_take_a_signed_in_learners_name(book):
    from webapp.pages import sign_in

    book.record(row("ada", "causal-mask", 3, learner_id="hf:ada"))  # ada has signed in before
    for lookalike in ("ada", "ADA", "ａｄａ", "аda", "Adá"):  # Cyrillic а, full width, accent
        with pytest.raises(ValueError, match="signed-in learner"):
            sign_in.learner(LAB, lookalike, idm.new_browser_key(), None)
        out = glue.grade_and_record("causal-mask", "x = 1", lookalike, "s",  # the API too
                                    submitter=LAB.submitter)
        assert out["refused"] and out["reason"] == "bad_name"
        assert "⚠️" in sign_in.describe(LAB, lookalike, None, "en")
    assert sign_in.learner(LAB, "ada", idm.new_browser_key(), profile_of("ada")).id == "hf:ada"
    assert book.count() == 1


def test_refusals_store_nothing_and_never_reach_the_grader(book):
    def boom(*a, **k):  # any grading here would be a bug: refusals come first
        raise AssertionError("the grader was called")

    serving = Serving.local(ServingSettings(rate_limit=1))
    sub = glue.Submitter(serving=serving, book=book, grade=boom)
    out = glue.grade_and_record("causal-mask", "", "Ada", "s", submitter=sub)
    assert (out["refused"], out["reason"], out["extra_data"]["stored"]) == (True, "empty", False)
    assert out["score"] == out["max_score"] == 0 and out["tests"] == []
    assert glue.grade_and_record("nope", "x = 1", "Ada", "s",
                                 submitter=sub)["reason"] == "unknown_exercise"
    serving.limits.learner.check(glue.rate_key(sub.resolve_learner("Ada"), "s"))  # Ada's one
    late = glue.grade_and_record("causal-mask", "x = 1", "Ada", "s", submitter=sub)
    assert late["reason"] == "rate_limited" and 1 <= late["retry_after_s"] <= 60
    assert "try again in" in glue.refusal_text(late, "en")
    assert "秒后再试" in glue.refusal_text(late, "zh")
    # Policy change: no busy gate any more (queue, don't refuse); only a full line refuses, at
    # once, with a retry time, and gives back the limit it counted.
    serving.grading = TurnQueue(slots=1, max_waiting=1, typical_s=3.0)
    held = [serving.grading.admit(ClientKey("x", "10.0.0.1")),  # grading
            serving.grading.admit(ClientKey("y", "10.0.0.2"))]  # the one place in line
    full = glue.grade_and_record("causal-mask", "x = 1", "Bob", "s", submitter=sub)
    assert full["reason"] == "queue_full" and full["retry_after_s"] >= 1
    assert "retry in 3 s" in glue.refusal_text(full, "en") and "3 秒后重试" in glue.refusal_text(full, "zh")
    bob = glue.rate_key(sub.resolve_learner("Bob"), "s")
    assert serving.limits.learner.check(bob)[0]  # Bob's one allowance was given back
    for ticket in held:
        ticket.release()
    assert book.count() == 0


def test_best_and_history_frames_match_the_rows(book):
    ids = [book.record(row("Ada (guest)", "causal-mask", s, when=f"2026-08-01T12:0{i}:00+00:00"))
           for i, s in enumerate([3, 9, 9, 5])]
    book.record(row("Ada (guest)", "manual-attention", 2, top=4))
    book.record(row("Bob (guest)", "causal-mask", 10))  # someone else's: never shown to Ada
    best = views.best_frame(book, ADA)
    # By hand: causal-mask best 9 first reached by the 2nd submission, 4 attempts; manual 2/4.
    assert best.values.tolist() == [
        ["causal-mask", 9.0, 10.0, 4, ids[1], "2026-08-01 12:03:00 UTC"],
        ["manual-attention", 2.0, 4.0, 1, ids[-1] + 1, "2026-08-01 12:00:00 UTC"]]
    hist = views.history_frame(book, ADA)
    assert hist["#"].tolist() == [ids[-1] + 1, *reversed(ids)]  # newest first, Ada only
    assert hist.iloc[1]["tests passed"] == "5/10"
    zh = views.history_frame(book, ADA, "zh")
    assert list(zh.columns)[:3] == ["#", "练习", "得分"]
    assert views.best_frame(book, "anonymous").empty and views.history_frame(book, None).empty
    # The typed label opens nothing, nor does an API label's id.
    assert views.history_frame(book, "Ada (guest)").empty
    book.record(row("Ada (api)", "causal-mask", 1, learner_id=idm.api_id("Ada (api)")))
    assert views.history_frame(book, idm.api_id("Ada (api)")).empty


def test_only_the_owner_can_reload_a_submission(book):
    mine = book.record(row("Ada (guest)", "causal-mask", 3, code="print('mine')\n"))
    theirs = book.record(row("Bob (guest)", "causal-mask", 3, code="print('theirs')\n"))
    # Mallory also calls herself "Ada (guest)": same label, another id, nothing of Ada's.
    mallory = "g:" + "c" * 20
    book.record(row("Ada (guest)", "causal-mask", 0, code="print('mallory')\n", learner_id=mallory))
    api = book.record(row("Ada (api)", "causal-mask", 0, learner_id=idm.api_id("Ada (api)")))
    assert views.own_submission(book, ADA, f" {mine} ") == ("causal-mask", "print('mine')\n")
    for who, sub_id, expected in [(ADA, theirs, "not in your history"),
                                  (ADA, 999, "not in your history"),
                                  (ADA, "two", "submission number"),
                                  (mallory, mine, "not in your history"),
                                  (idm.api_id("Ada (api)"), api, "no history"),
                                  ("Ada (guest)", mine, "no history"),
                                  ("anonymous", mine, "no history")]:
        with pytest.raises(ValueError, match=expected):
            views.own_submission(book, who, sub_id)


def test_instructor_view_needs_the_password(book, monkeypatch):
    from webapp.pages import instructor

    monkeypatch.setattr(LAB.serving, "password_tries",
                        FailureLimiter(per_client=3, overall=20))
    _password_checks(book, monkeypatch, instructor)


GUEST = "guest (one browser)"


def _password_checks(book, monkeypatch, instructor) -> None:
    monkeypatch.delenv("LAB_INSTRUCTORS", raising=False)
    book.record(row("Ada (guest)", "causal-mask", 9))
    book.record(row("Bob (guest)", "manual-attention", 4, top=4))
    book.record(row("Bob (guest)", "manual-attention", 2, top=4, learner_id="g:" + "d" * 20))
    monkeypatch.delenv(access.PASSWORD_ENV, raising=False)
    assert not access.password_set() and not access.password_ok("") and instructor.mode() == "disabled"
    frame, log, text = instructor.scores(LAB, "", None, "10.0.0.1")
    assert frame is None and log is None and "disabled" in text
    monkeypatch.setenv(access.PASSWORD_ENV, "s3cret-s3cret-1")
    assert instructor.mode() == "password"
    frame, log, text = instructor.scores(LAB, "wrong", None, "10.0.0.1")
    assert frame is None and "Wrong password" in text
    frame, log, text = instructor.scores(LAB, "s3cret-s3cret-1", None, "10.0.0.1")
    # Two "Bob (guest)" learners stay apart by id; exercises show their titles, not ids.
    causal, manual = exercise_title("causal-mask"), exercise_title("manual-attention")
    assert causal.endswith("Causal (look-ahead) mask") and "manual" not in manual
    assert frame.values.tolist() == [
        ["Ada (guest)", ADA, GUEST, causal, 9.0, 10.0, 1, 1, "2026-08-01 12:00:00 UTC",
         "2026-08-01 12:00:00 UTC"],
        ["Bob (guest)", BOB, GUEST, manual, 4.0, 4.0, 1, 2, "2026-08-01 12:00:00 UTC",
         "2026-08-01 12:00:00 UTC"],
        ["Bob (guest)", "g:" + "d" * 20, GUEST, manual, 2.0, 4.0, 1, 3,
         "2026-08-01 12:00:00 UTC", "2026-08-01 12:00:00 UTC"]]
    assert "3 submissions from 3 learners" in text
    path, text = instructor.export(LAB, "s3cret-s3cret-1", False, None, "10.0.0.1")
    # a byte-order mark first, as the per-learner file (the chromium walk: Excel showed this
    # file's Chinese columns garbled); utf-8-sig reads past it
    assert Path(path).read_text(encoding="utf-8").startswith("\ufeffid,learner,")
    table = list(csv.DictReader(io.StringIO(Path(path).read_text(encoding="utf-8-sig"))))
    assert {"learner", "exercise", "score", "max_score", "submitted_at", "learner_id"} <= set(table[0])
    assert [(r["learner"], r["learner_id"], float(r["score"])) for r in table] == [
        ("Ada (guest)", ADA, 9.0), ("Bob (guest)", BOB, 4.0), ("Bob (guest)", "g:" + "d" * 20, 2.0)]
    # Who and when: the wrong try, the view and the export, newest first.
    entries = [(e.who, e.action) for e in book.access_log()]
    assert entries == [("password from 10.0.0.1", "export"), ("password from 10.0.0.1", "view"),
                       ("password from 10.0.0.1", "refused")]
    assert list(log.columns) == ["when", "who", "action", "detail"]
    for _ in range(3):  # guessing is limited per address, whatever the session
        instructor.scores(LAB, "guess", None, "10.0.0.2")
    text = instructor.scores(LAB, "s3cret-s3cret-1", None, "10.0.0.2")[2]
    assert re.search(r"Too many wrong tries. Try again in \d+ s", text)
    assert instructor.scores(LAB, "s3cret-s3cret-1", None, "10.0.0.3")[0] is not None  # others still may


def test_instructor_allow_list_refuses_a_signed_in_non_instructor(book, monkeypatch):
    from webapp.pages import instructor, sign_in

    book.record(row("Ada (guest)", "causal-mask", 9))
    monkeypatch.setenv("SPACE_ID", "course/lab")  # a Space with hf_oauth: true
    monkeypatch.setenv("OAUTH_CLIENT_ID", "client-id")
    monkeypatch.setenv("LAB_INSTRUCTORS", "Teacher, second-teacher")
    monkeypatch.setenv(access.PASSWORD_ENV, "s3cret")  # ignored: the allow-list decides
    assert instructor.mode() == "allow_list"
    frame, _, text = instructor.scores(LAB, "s3cret", None, "10.0.0.1")
    assert frame is None and "Sign in" in text
    frame, _, text = instructor.scores(LAB, "s3cret", profile_of("mallory"), "10.0.0.1")
    assert frame is None and "not on this Space's instructor list" in text
    path, text = instructor.export(LAB, "s3cret", True, profile_of("mallory"), "10.0.0.1")
    assert path is None
    frame, log, _ = instructor.scores(LAB, None, profile_of("teacher"), "10.0.0.1")  # case-insensitive
    assert frame["learner"].tolist() == ["Ada (guest)"]
    path, _ = instructor.export(LAB, None, True, profile_of("second-teacher"), "10.0.0.9")
    assert "print" in Path(path).read_text(encoding="utf-8") or "x = 1" in Path(path).read_text(encoding="utf-8")
    assert [(e.who, e.action, e.detail) for e in book.access_log()] == [
        ("hf:second-teacher", "export", "csv with code"), ("hf:teacher", "view", "best scores"),
        ("hf:mallory", "refused", "not on LAB_INSTRUCTORS"),
        ("hf:mallory", "refused", "not on LAB_INSTRUCTORS")]
    with gr.Blocks() as demo:  # identity parts without a login button (that needs an HF token)
        instructor.build(LAB, sign_in.Identity(stored=gr.State(""), key=gr.State(""), name=gr.Textbox(),
                                           status=gr.Markdown(), login=None))
    props = {c.get("props", {}).get("elem_id"): c.get("props", {}) for c in demo.config["components"]}
    assert props["instructor-password"]["visible"] is False  # no shared password on the page


def test_recovery_code_carries_a_guest_to_another_browser(book):
    from webapp.pages import progress

    home, other, thief = (idm.new_browser_key() for _ in range(3))
    me = idm.guest_id(home)
    sub_id = book.record(row("Ada (guest)", "causal-mask", 5, code="print('mine')\n", learner_id=me))
    assert progress.tables(LAB, other, None)[1].empty  # another browser: nothing yet
    code = progress.new_recovery_code(LAB, home, None)
    assert book.recovered_learner(idm.recovery_hash(code)) == me
    with pytest.raises(ValueError, match="not valid"):
        progress.use_recovery_code(LAB, idm.new_recovery_code(), thief, "10.0.0.5")
    assert "Ada (guest)" in progress.use_recovery_code(LAB, code.lower(), other, "10.0.0.6")
    assert progress.tables(LAB, other, None)[1]["#"].tolist() == [sub_id]
    assert progress.own_code(LAB, other, None, sub_id) == ("causal-mask", "print('mine')\n")
    progress.new_recovery_code(LAB, other, None)  # a new code cancels the one shown before
    with pytest.raises(ValueError, match="not valid"):
        progress.use_recovery_code(LAB, code, thief, "10.0.0.5")
    with pytest.raises(ValueError, match="not in your history"):
        progress.own_code(LAB, thief, None, sub_id)
    with pytest.raises(ValueError, match="signed in"):
        progress.new_recovery_code(LAB, home, profile_of("ada"))


def test_pages_build_without_a_password_or_oauth(monkeypatch):
    from webapp.pages import exercises, instructor, progress, sign_in

    monkeypatch.delenv(access.PASSWORD_ENV, raising=False)
    monkeypatch.delenv("OAUTH_CLIENT_ID", raising=False)
    with gr.Blocks() as demo:
        who = sign_in.build(LAB)
        with gr.Tab("p"):
            page = progress.build(LAB, who)
        with gr.Tab("i"):
            instructor.build(LAB, who)
        editor = exercises.Editor(gr.Dropdown(["a"]), gr.Code(), gr.State("a"), gr.State({}),
                                  gr.Markdown(), gr.Dataframe())
        progress.connect_editor(LAB, page, editor)
    ids = {c.get("props", {}).get("elem_id") for c in demo.config["components"]}
    assert who.login is None  # no gr.LoginButton off a Space: Gradio would need an HF token
    props = {c.get("props", {}).get("elem_id"): c.get("props", {}) for c in demo.config["components"]}
    assert props["instructor-disabled"]["visible"] is True
    assert props["instructor-form"]["visible"] is False  # no password box is offered
    assert {"progress-load", "progress-history", "who-name"} <= ids


def test_uploads_are_checked_before_they_reach_the_editor(tmp_path):
    from webapp.pages.exercises import read_upload

    png = tmp_path / "solution.py"
    png.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    broken = tmp_path / "broken.ipynb"
    broken.write_text('{"cells": [{"cell_type": "code", "source": "x', encoding="utf-8")
    good = tmp_path / "good.ipynb"
    good.write_text('{"cells": [{"cell_type": "code", "id": "a", "source": "x = 2", "metadata": {},'
                    ' "outputs": [], "execution_count": null}], "metadata": {}, "nbformat": 4,'
                    ' "nbformat_minor": 5}', encoding="utf-8")
    with pytest.raises(ValueError, match="binary"):
        read_upload(str(png))
    with pytest.raises(ValueError, match="damaged"):
        read_upload(str(broken))
    assert read_upload(str(good)) == "x = 2\n"


def test_a_click_racing_the_first_page_load_gets_the_same_key():
    """Submit within a second of a first visit reaches the server before the load event has
    given the browser its key: both must settle on one key, or the submission is orphaned."""
    from webapp.pages import sign_in

    first = sign_in.claim(LAB, "alice", "", None, session="sess-1")  # Submit: no key in the browser yet
    assert idm.valid_browser_key(first.browser_key)
    assert sign_in.key_for(LAB, None, "sess-1") == first.browser_key  # the load event hands this one out
    assert sign_in.key_for(LAB, None, "sess-2") != first.browser_key  # another page, another key
    own = idm.new_browser_key()
    assert sign_in.key_for(LAB, own, "sess-1") == own  # a browser that has a key keeps it
    assert sign_in.claim(LAB, "alice", "", None, via_api=True).browser_key is None  # API: no key
    assert sign_in.key_for(LAB, "", None) is None


def test_a_flood_of_fresh_page_sessions_keeps_the_minted_keys_bounded(monkeypatch):
    """Every new page session without a key mints one; a client making sessions faster than the
    10-minute TTL must not grow the table without bound. The newest sessions keep their keys."""
    from webapp.pages import sign_in
    from webapp.services.key_stamps import SessionKeys

    monkeypatch.setattr(LAB, "session_keys", SessionKeys(max_sessions=50))
    for i in range(500):
        sign_in.key_for(LAB, None, f"flood-{i}")
    assert len(LAB.session_keys) <= 50
    latest = sign_in.key_for(LAB, None, "flood-499")
    assert sign_in.key_for(LAB, None, "flood-499") == latest  # still the same key for the racer


def test_the_browser_key_outlives_a_restart_of_the_app():
    """gr.BrowserState encrypts with a secret sent to the page; Gradio's default is random per
    process, which would make every browser forget its key (and its history) on a restart."""
    from webapp.pages import sign_in

    secrets_seen = set()
    for _ in range(2):  # two builds stand for two processes: nothing random may differ
        with gr.Blocks():
            built = sign_in.build(LAB)
        secrets_seen.add((built.key.secret, built.key.storage_key, built.stored.secret))
    assert secrets_seen == {(sign_in.BROWSER_STATE_SECRET, sign_in.KEY_STORAGE_KEY,
                             sign_in.BROWSER_STATE_SECRET)}


def test_a_weak_instructor_password_refuses_to_start(book, monkeypatch, caplog):
    """Red-team F4: with a global brute-force cap that only throttles, the password itself
    must be out of reach of guessing: fewer than 12 characters and the app will not start."""
    import logging

    from webapp.pages import instructor

    monkeypatch.delenv("LAB_INSTRUCTORS", raising=False)
    for weak in ("s3cret", "password123", "x" * 11):
        monkeypatch.setenv(access.PASSWORD_ENV, weak)
        with caplog.at_level(logging.ERROR, logger="transformer_lab.app"), \
                pytest.raises(RuntimeError, match="at least 12") as refused:
            instructor.check_password()
        # The message says what happens: the app does not start (not "the view stays closed").
        assert "stays closed" not in str(refused.value) and "starts once" in str(refused.value)
        assert "refusing to start" in caplog.text and "LAB_INSTRUCTOR_PASSWORD" in caplog.text
        # Even if it were changed after start: the view stays closed and nothing matches.
        assert instructor.mode() == "disabled" and not access.password_ok(weak)
        assert instructor.scores(LAB, weak, None, "10.0.0.1")[0] is None
    monkeypatch.setenv(access.PASSWORD_ENV, "twelve chars")
    instructor.check_password()  # 12 characters: fine
    assert instructor.mode() == "password" and access.password_ok("twelve chars")


def test_trust_is_kept_in_the_gradebook_for_every_replica(tmp_path, monkeypatch):
    """A successful login is remembered as keyed hashes in the gradebook: a second handle on
    the same database (another replica) sees it; a new password forgets it."""
    from gradebook import identity as idm

    monkeypatch.setenv(access.PASSWORD_ENV, "correct horse battery staple")
    url = f"sqlite:///{tmp_path / 'gb.sqlite3'}"
    key = idm.new_browser_key()
    with open_gradebook(url) as one, open_gradebook(url) as two:
        hashes = access.trust_hashes("198.51.100.7", key)
        assert set(hashes) == {"address", "browser"} and not any(h in key for h in hashes.values())
        assert not two.trusted_client(hashes["address"])
        for h in hashes.values():
            one.trust_client(h)
        assert all(two.trusted_client(h) for h in hashes.values())
        assert not two.trusted_client(hashes["address"], max_age_days=0)
        assert access.trust_hashes("198.51.100.7", "not a key").keys() == {"address"}
        monkeypatch.setenv(access.PASSWORD_ENV, "a brand new password")
        assert not any(two.trusted_client(h) for h in access.trust_hashes("198.51.100.7", key).values())


def test_an_api_label_counts_per_address(book):
    """Red team (issue 17, A3): from address B, ten `grade` calls labelled "alice" spent the
    real alice's limit at address A ("try again in 29 s"). A label is anyone's to type: its
    limit and places in line count per address (the gradebook id stays shared)."""
    from grader.report import Report, TestResult

    def graded(exercise_id, code, learner=None, learner_id=None):
        return Report(exercise_id, [TestResult("t", 1.0, 1.0, True, {"en": "", "zh": ""})])

    Key = ClientKey
    serving = Serving.local(ServingSettings(rate_limit=2))
    sub = glue.Submitter(serving=serving, book=book, grade=graded)
    for i in range(3):
        glue.grade_and_record("causal-mask", "x = 1", "alice", f"b{i}", submitter=sub,
                              client=Key(f"b{i}", "203.0.113.66"))
    real = glue.grade_and_record("causal-mask", "x = 1", "alice", "a", submitter=sub,
                                 client=Key("a", "198.51.100.7"))
    assert real["extra_data"]["stored"] is True, real
    ids = {r.learner_id for r in book.all_rows(include_code=False)}
    assert len(ids) == 1  # one shared API id in the gradebook, as before


def test_public_examples_take_turns_as_the_learner(book):
    """Red team (issue 17, A2): a tab sending 40 "Run examples" clicks, each from a new page
    session, became 40 fair shares at the class's address (classmates waited 195 s). Examples
    now take their turn as the learner: fresh sessions of one browser are one unit."""
    from gradebook import Claim

    serving = Serving.local(ServingSettings(new_learners_per_address=2))
    sub = glue.Submitter(serving=serving, book=book)
    key = idm.new_browser_key()
    units = set()
    for i in range(5):
        client, refused = sub.practice_client(Claim(typed="Eve", browser_key=key), f"s{i}",
                                              ClientKey(f"s{i}", "198.51.100.7"))
        assert refused is None
        units.add(client.unit)
    assert len(units) == 1  # one learner, whatever the session
    for i in range(2):  # the address's new-learner bound covers examples too
        _, refused = sub.practice_client(Claim(typed="Bot", browser_key=idm.new_browser_key()),
                                         f"m{i}", ClientKey(f"m{i}", "198.51.100.7"))
    assert refused is not None and refused.reason == "new_learners"


def test_public_examples_have_the_submit_limits_counted_apart(book):
    """Issue 19, property 2: the public examples go through the same admission and limits as
    Submit (they had no rate limit at all); counted apart, so practice costs no submission."""
    from gradebook import Claim

    serving = Serving.local(ServingSettings(rate_limit=3))
    sub = glue.Submitter(serving=serving, book=book)
    key = idm.new_browser_key()
    outcomes = [sub.practice_client(Claim(typed="Eve", browser_key=key), f"s{i}",
                                    ClientKey(f"s{i}", "198.51.100.7"))[1] for i in range(4)]
    assert outcomes[:3] == [None] * 3 and outcomes[3].reason == "rate_limited"
    client = ClientKey("s9", "198.51.100.7").as_learner(
        glue.rate_key(sub.resolve_learner(Claim(typed="Eve", browser_key=key)), "s9"))
    assert serving.limits.admit(client) is None  # her submissions' own limit is untouched
