"""The gradebook through the running app's `grade` endpoint: rows stored, limits, refusals."""

from __future__ import annotations

import dataclasses
import json
import re
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest
from gradio_client.exceptions import AppError

from gradebook import Submission, grader_version
from gradebook import identity as idm
from webapp.serving.limits import Limits
from webapp.serving.ratelimit import FailureLimiter
from webapp.serving.settings import ServingSettings
from webapp.serving.turns import TurnQueue
from webapp.serving.who import ClientKey

REPO = Path(__file__).resolve().parents[3]
EXERCISE = "causal-mask"


def reference(exercise_id: str = EXERCISE) -> str:
    return (REPO / "hidden" / exercise_id / "reference.py").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def book(app_gradebook):
    """The running app's gradebook for this module (see conftest.app_gradebook)."""
    return app_gradebook


@pytest.fixture
def serving(book):
    """The running app's serving wing; its limits, grading line and settings as they were come
    back after the test (the module's generous limits: conftest.app_gradebook)."""

    import app
    wing = app.LAB.serving
    saved = (wing.limits, wing.grading, wing.settings)
    yield wing
    wing.limits, wing.grading, wing.settings = saved


@pytest.fixture
def limits(serving):
    """Set the app's limits for one test: ``limits(rate_limit=2)`` (counted in this process)."""

    def use(**settings) -> Limits:
        serving.limits = Limits.in_memory(ServingSettings(**settings))
        return serving.limits

    return use


@pytest.fixture
def one_hop(serving):
    """One trusted proxy hop, as behind a Space's proxy (LAB_FORWARDED_HOPS=1 is read once at
    start, so the running app's settings are swapped instead), restored afterwards."""
    serving.settings = dataclasses.replace(serving.settings, forwarded_hops=1)
    return serving


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
    # A name passed to the API is a label of an API submission, with an opaque id of its own.
    assert extra["stored"] is True and extra["learner"] == "Ada Test (api)"
    assert extra["learner_id"] == idm.api_id("Ada Test (api)")
    row = book.get(extra["submission_id"])
    assert row is not None
    assert (row.learner, row.exercise, row.status) == ("Ada Test (api)", EXERCISE, "graded")
    assert row.learner_id == extra["learner_id"]
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
    limits(rate_limit=2, rate_window_s=60)
    for _ in range(2):
        client.predict(EXERCISE, "x = 1", "Rate Tester", api_name="/grade")
    with pytest.raises(AppError, match="rate_limited") as err:
        client.predict(EXERCISE, "x = 1", "Rate Tester", api_name="/grade")
    wait = int(re.search(r"try again in (\d+) s", str(err.value)).group(1))
    assert 1 <= wait <= 60
    assert book.count("Rate Tester (api)") == 2
    # The limit is per learner: somebody else is still welcome.
    assert client.predict(EXERCISE, "x = 1", "Other Tester", api_name="/grade")["max_score"] > 0


def test_anonymous_learners_are_limited_per_session(app_url, book, limits):
    from gradio_client import Client

    limits(rate_limit=1, rate_window_s=60)
    first, second = Client(app_url, verbose=False), Client(app_url, verbose=False)
    first.predict(EXERCISE, "x = 1", api_name="/grade")
    with pytest.raises(AppError, match="rate_limited"):
        first.predict(EXERCISE, "x = 1", api_name="/grade")
    second.predict(EXERCISE, "x = 1", api_name="/grade")  # another browser: its own allowance


def test_a_full_line_answers_at_once_with_a_retry_time(client, book, serving):
    # Policy change: no busy gate (a busy grader means waiting, below); only a full line refuses.
    line = serving.grading = TurnQueue(slots=1, max_waiting=1, typical_s=3.0)
    n = book.count()
    held = [line.admit(ClientKey("s-a", "198.51.100.31")),  # someone else's grading
            line.admit(ClientKey("s-b", "198.51.100.32"))]  # and the one place in line
    assert [t.position() for t in held] == [0, 1]
    try:
        t0 = time.monotonic()
        with pytest.raises(AppError, match=r"queue_full: .*retry in \d+ s") as err:
            client.predict(EXERCISE, reference(), "Busy Tester", api_name="/grade")
        assert time.monotonic() - t0 < 30  # at once, not after the grading ahead
        assert re.search(r"[\u4e00-\u9fff]", str(err.value))  # in Chinese too
    finally:
        for t in held:
            t.release()
    assert book.count() == n


def test_a_busy_grader_makes_the_call_wait_its_turn_then_grades(client, book, serving):
    """Queue, don't refuse: with the only slot taken the call waits, then is graded and stored."""
    line = serving.grading = TurnQueue(slots=1, typical_s=3.0)
    n = book.count()
    other = line.admit(ClientKey("s-a", "198.51.100.33"))  # someone else's grading
    job = client.submit(EXERCISE, reference(), "Patient Tester", api_name="/grade")
    deadline = time.monotonic() + 30
    while line.snapshot()["waiting"] == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        assert line.snapshot() == {"running": 1, "waiting": 1}  # in line, not refused
        assert not job.done() and book.count() == n
    finally:
        other.release()
    out = job.result(timeout=120)
    assert out["score"] == out["max_score"] > 0 and out["extra_data"]["stored"] is True
    assert book.count() == n + 1 and line.snapshot() == {"running": 0, "waiting": 0}


@pytest.mark.parametrize(
    ("exercise", "code", "learner", "reason"),
    [(EXERCISE, "", "Bad Input", "empty"), (EXERCISE, "  \n\t\n", "Bad Input", "empty"),
     (EXERCISE, "x = 1  # padding\n" * 62_000, "Bad Input", "too_large"),  # ~1 MB
     (EXERCISE, "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "Bad Input", "binary"),
     (EXERCISE, '{"cells": [{"cell_type": "code", "source": "x', "Bad Input", "bad_notebook"),
     ("no-such-exercise", "x = 1\n", "Bad Input", "unknown_exercise"),
     (EXERCISE, "x = 1\n", "=cmd|' /C calc'!A0", "bad_name"),
     (EXERCISE, "x = 1\n", "a" * 70, "bad_name")],
)
def test_bad_input_gives_a_clear_message_and_stores_nothing(client, book, exercise, code,
                                                            learner, reason):
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


def _raw_call(app_url: str, fn_name: str, data: list) -> dict:
    """Call a page event by index over plain HTTP, as any script can ("private" only hides it
    from the API page and from gradio_client): the message Gradio sends back when it ends."""
    import uuid

    import httpx

    import app

    index = next(i for i, fn in app.demo.fns.items() if getattr(fn.fn, "__name__", "") == fn_name)
    session = uuid.uuid4().hex[:11]
    base = app_url.rstrip("/")
    r = httpx.post(f"{base}/gradio_api/queue/join", json={
        "data": data, "fn_index": index, "session_hash": session, "event_data": None,
        "trigger_id": None}, timeout=30)
    r.raise_for_status()
    with httpx.stream("GET", f"{base}/gradio_api/queue/data", params={"session_hash": session},
                      timeout=60) as stream:
        for line in stream.iter_lines():
            if line.startswith("data:") and '"process_completed"' in line:
                return json.loads(line[5:])
    raise AssertionError("no answer")


def test_an_api_learner_name_opens_nobodys_history(app_url, client, book):
    """alice submits from her browser; a script sends grade(..., learner="alice") and then asks
    the Progress page's own events, by index, for history and code with the name "alice"."""
    import app
    from webapp.services import submissions as glue

    alice_key = idm.new_browser_key()
    mine = glue.grade_and_record(EXERCISE, reference(), idm.Claim("alice", alice_key), "s-alice",
                                 submitter=app.LAB.submitter)
    assert mine["extra_data"]["learner"] == "alice (guest)"
    alice_id, secret_id = mine["extra_data"]["learner_id"], mine["extra_data"]["submission_id"]
    out = client.predict(EXERCISE, "x = 1", "alice", api_name="/grade")
    assert out["extra_data"]["learner"] == "alice (api)" and out["extra_data"]["learner_id"] != alice_id
    # The documented API offers grading only; nothing reads history or code.
    named = client.view_api(print_info=False, return_format="dict")["named_endpoints"]
    assert "/grade" in named and not any("progress" in n or "history" in n for n in named)
    for key in ("", "alice", idm.new_browser_key()):  # no key, a name as key, a stranger's key
        refresh = _raw_call(app_url, "on_refresh", ["alice", key])
        assert refresh["success"]
        best, history, _ = refresh["output"]["data"]
        assert not history.get("data") and not best.get("data")
        for sub_id in range(1, secret_id + 3):  # every row of this gradebook, and beyond
            preview, status = _raw_call(app_url, "on_pick", ["alice", key, str(sub_id)])["output"]["data"]
            assert not isinstance(preview, str)  # no code came back, only "keep as is"
            assert re.search(r"not in your history|no learner key", status), status
    # Her own key sees her row (so the calls above did reach the real code path).
    own = _raw_call(app_url, "on_refresh", ["whatever", alice_key])["output"]["data"][1]
    assert [r[0] for r in own["data"]] == [secret_id]


def _try_password(app_url: str, password: str, forwarded_for: str | None = None,
                  browser_key: str | None = None) -> str:
    """One try from a brand-new gradio_client session; the status text it gets back."""
    from gradio_client import Client

    headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else None
    fresh = Client(app_url, verbose=False, headers=headers)
    if browser_key is None:  # a script: no browser key
        table, csv_file, log, status = fresh.predict(password, api_name="/instructor_scores")
    else:  # the page's own button, which sends this browser's key
        # the page's event also sets the export's expiry timer (issue 20): a fifth output
        table, csv_file, log, status, _timer = fresh.predict(password, browser_key,
                                                             api_name="/instructor_scores_browser")
    return status


@pytest.fixture
def instructor_password(book, monkeypatch):

    monkeypatch.setenv("LAB_INSTRUCTOR_PASSWORD", "correct horse battery staple")
    monkeypatch.delenv("LAB_INSTRUCTORS", raising=False)
    book.record(Submission(learner="alice (guest)", learner_id="g:" + "a" * 20,
                           exercise=EXERCISE, code="x = 1\n", score=1, max_score=2, tests=[]))
    import app
    monkeypatch.setattr(app.LAB.serving, "password_tries",
                        FailureLimiter(per_client=5, client_window_s=600, overall=20,
                                       overall_window_s=3600))
    yield "correct horse battery staple"


def test_thirty_wrong_passwords_from_thirty_fresh_clients_are_refused_after_the_limit(
        app_url, book, instructor_password):
    n_log = len(book.access_log(1000))
    statuses = [_try_password(app_url, f"guess-{i}") for i in range(30)]
    # All from one address: 5 compared and refused, then locked out with the wait shown.
    assert all("Wrong password" in s for s in statuses[:5])
    waits = [int(re.search(r"Try again in (\d+) s", s).group(1)) for s in statuses[5:]]
    assert len(waits) == 25 and all(550 <= w <= 600 for w in waits)
    assert "Try again in" in _try_password(app_url, instructor_password)  # even the right one
    refused = book.access_log(1000)[: len(book.access_log(1000)) - n_log]
    assert [(e.action, e.detail) for e in refused] == [("refused", "wrong password")] * 5


def test_wrong_passwords_from_many_addresses_never_lock_the_instructor_out(
        app_url, book, instructor_password, one_hop):
    """Red-team F4: 20 wrong passwords from 4 addresses filled the overall cap and the right
    password from a new address was then refused for an hour. The cap now throttles strangers
    (one try per address per 10 minutes) and never blocks a client that logged in before."""
    from webapp.services import instructor_access as access

    attackers = [f"203.0.113.{i + 1}" for i in range(4)]
    statuses = [_try_password(app_url, f"guess-{i}", ip) for ip in attackers for i in range(5)]
    assert all("Wrong password" in s for s in statuses)  # 20: the overall cap is reached
    assert all(re.search(r"Try again in \d+ s", _try_password(app_url, "x", ip)) for ip in attackers)
    # Throttled, not locked: a new address gets one compared try, then waits its 10 minutes.
    for ip in ("203.0.113.50", "203.0.113.51"):
        assert "Wrong password" in _try_password(app_url, "guess", ip)
        wait = int(re.search(r"Try again in (\d+) s", _try_password(app_url, "x", ip)).group(1))
        assert 550 <= wait <= 600
    # The real instructor, from a fresh address and a browser, right after the attack: in.
    key = idm.new_browser_key()
    assert "submissions from" in _try_password(app_url, instructor_password, "198.51.100.7", key)
    hashes = access.trust_hashes("198.51.100.7", key)
    assert all(book.trusted_client(h) for h in hashes.values())  # kept in the gradebook
    assert "198.51.100.7" not in repr(book._query("SELECT * FROM instructor_trust"))
    # Still over the cap: that address keeps its five tries (mistypes, then in).
    for _ in range(4):
        assert "Wrong password" in _try_password(app_url, "typo", "198.51.100.7")
    assert "submissions from" in _try_password(app_url, instructor_password, "198.51.100.7")
    # Her browser is known even from an address the attackers locked (a shared classroom NAT).
    assert "Try again in" in _try_password(app_url, instructor_password, attackers[0])
    assert "submissions from" in _try_password(app_url, instructor_password, attackers[0], key)
    # A browser's wrong tries are its own (issue 29, item 4; this line asserted the opposite
    # before): a browser that never guessed wrong is compared even at an address whose scripts
    # are locked out, so the teacher's new browser behind the class's address gets in.
    assert "submissions from" in _try_password(app_url, instructor_password, attackers[1],
                                               idm.new_browser_key())
    whos = {e.who for e in book.access_log(1000) if e.action == "refused"}
    assert {f"password from {ip}" for ip in attackers} <= whos


def test_a_student_guessing_at_the_class_address_never_locks_the_teacher_out(
        app_url, book, instructor_password, one_hop):
    """Red team (issue 29, item 4): 5 wrong passwords from a learner's browser at the class's
    one address locked the teacher's right password from a new browser there out for 600 s.
    Wrong tries now count against the browser that sent them."""
    school = "203.0.113.140"
    student = idm.new_browser_key()
    for i in range(5):
        assert "Wrong password" in _try_password(app_url, f"guess-{i}", school, student)
    # The guesser is locked, in its own browser only.
    assert "Try again in" in _try_password(app_url, instructor_password, school, student)
    # The teacher's browser never guessed wrong: compared, and in.
    assert "submissions from" in _try_password(app_url, instructor_password, school,
                                               idm.new_browser_key())
    # A classmate's browser that mistypes once is compared too, and still has its own tries.
    mate = idm.new_browser_key()
    assert "Wrong password" in _try_password(app_url, "typo", school, mate)
    assert "submissions from" in _try_password(app_url, instructor_password, school, mate)


def test_the_right_password_shows_scores_and_is_logged(app_url, book, instructor_password):
    status = _try_password(app_url, instructor_password)
    assert "submissions from" in status
    entry = book.access_log(1)[0]
    assert (entry.who, entry.action) == ("password from 127.0.0.1", "view")


def _raw_grade(app_url: str, data: list) -> dict:
    """POST to the `grade` endpoint with ASCII JSON, as any script may: "\\ud800" in the JSON
    text is a lone surrogate once the server parses it (gradio_client cannot send one)."""
    import uuid

    import httpx

    import app

    index = next(i for i, fn in app.demo.fns.items() if fn.api_name == "grade")
    session = uuid.uuid4().hex[:11]
    base = app_url.rstrip("/")
    body = json.dumps({"data": data, "fn_index": index, "session_hash": session,
                       "event_data": None, "trigger_id": None}, ensure_ascii=True)
    r = httpx.post(f"{base}/gradio_api/queue/join", content=body.encode("ascii"),
                   headers={"content-type": "application/json"}, timeout=30)
    r.raise_for_status()
    with httpx.stream("GET", f"{base}/gradio_api/queue/data", params={"session_hash": session},
                      timeout=120) as stream:
        for line in stream.iter_lines():
            if line.startswith("data:") and '"process_completed"' in line:
                return json.loads(line[5:])
    raise AssertionError("no answer")


def test_a_lone_surrogate_through_the_grade_endpoint_is_graded_and_stored(app_url, book):
    """Red-team F5: JSON carries "\\ud800" as a lone surrogate into the code; the app must
    store what it graded (it used to answer not_stored, or fail before grading)."""
    for code in ('x = "\ud800"\nraise ValueError("bad " + x + " shape")\n',
                 'raise ValueError("bad \\ud800 shape")\n'):
        answer = _raw_grade(app_url, ["manual-attention", code, "mallory"])
        assert answer["success"], answer
        out = answer["output"]["data"][0]
        extra = out["extra_data"]
        assert not out.get("refused") and extra["stored"] is True, out.get("reason")
        row = book.get(extra["submission_id"])
        assert row is not None and row.learner == "mallory (api)" and "\ud800" not in row.code
        assert row.code.startswith(('x = "\\ud800"', 'raise ValueError("bad \\ud800'))


def test_api_rows_are_marked_unverified_on_the_instructor_page_and_csv(
        app_url, book, instructor_password, one_hop):
    """Red-team F8 (by design): every API caller using one label shares one learner id. The
    instructor must see such rows for what they are: label "... (api)", id "api:...", and a
    source column saying the label is unverified."""
    import csv
    import io

    from gradio_client import Client

    ids_seen = set()
    for ip in ("203.0.113.60", "203.0.113.61"):  # two unrelated scripts, one label
        caller = Client(app_url, verbose=False, headers={"X-Forwarded-For": ip})
        out = caller.predict(EXERCISE, "x = 1\n", "carol", api_name="/grade")
        ids_seen.add(out["extra_data"]["learner_id"])
    assert len(ids_seen) == 1 and next(iter(ids_seen)).startswith("api:")
    instructor = Client(app_url, verbose=False, headers={"X-Forwarded-For": "198.51.100.20"})
    table, _, _, status = instructor.predict(instructor_password, api_name="/instructor_scores")
    rows = [dict(zip(table["headers"], r, strict=True)) for r in table["data"]]
    carol = [r for r in rows if r["learner"] == "carol (api)"]
    assert len(carol) == 1 and carol[0]["attempts"] == 2
    assert carol[0]["learner id"].startswith("api:") and carol[0]["source"] == "API (unverified label)"
    assert all(r["source"] == "guest (one browser)" for r in rows if r["learner"].endswith("(guest)"))
    _, path, _, _ = instructor.predict(instructor_password, False, api_name="/instructor_csv")
    lines = list(csv.DictReader(io.StringIO(Path(path).read_text(encoding="utf-8-sig"))))
    api_lines = [r for r in lines if r["learner"] == "carol (api)"]
    assert len(api_lines) == 2 and all(r["learner_id"].startswith("api:") for r in api_lines)


def test_the_per_learner_export_is_one_row_per_learner_with_a_column_per_exercise(
        app_url, book, instructor_password):
    """Issue 25: the spreadsheet a teacher expects beside the per-submission CSV: one line per
    learner (told apart by id), one column per exercise with the best score."""
    import csv
    import io

    from gradio_client import Client

    twin = "g:" + "b" * 20  # a second "alice (guest)": her own line
    for score in (1, 2):
        book.record(Submission(learner="alice (guest)", learner_id=twin,
                               exercise="manual-attention", code="x = 2\n", score=score,
                               max_score=4, tests=[]))
    instructor = Client(app_url, verbose=False)
    _, path, log, status = instructor.predict(instructor_password,
                                              api_name="/instructor_csv_learners")
    assert "learners-" in Path(path).name and "one row per learner" in status
    lines = list(csv.DictReader(io.StringIO(Path(path).read_text(encoding="utf-8-sig"))))
    by_id = {r["learner_id"]: r for r in lines if r["learner_id"]}
    assert len(lines) == len({b.learner_id or f"label:{b.learner}" for b in book.best_scores()})
    assert len(by_id) == len({b.learner_id for b in book.best_scores() if b.learner_id})
    assert by_id["g:" + "a" * 20]["learner"] == by_id[twin]["learner"] == "alice (guest)"
    ex = next(k for k in lines[0] if k.startswith(f"{EXERCISE} (/"))
    manual = next(k for k in lines[0] if k.startswith("manual-attention (/"))  # the max of all
    assert by_id[twin][manual] == "2" and by_id[twin][ex] == ""
    assert by_id["g:" + "a" * 20][ex] == "1"
    assert "code" not in lines[0]
    assert book.access_log(1)[0].detail == "csv per learner"
    refused = Client(app_url, verbose=False).predict("wrong password 123",
                                                     api_name="/instructor_csv_learners")
    assert refused[1] is None and "rong" in refused[3]
