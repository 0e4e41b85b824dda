"""Learner ids, browser keys, recovery codes, lookalike names, the instructor access log, the
migration of gradebooks made before ids, and the failure limiter; SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import io
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from gradebook import (
    CSV_HEADER,
    Refused,
    Submission,
    open_gradebook,
)
from gradebook import identity as ids
from webapp.serving.ratelimit import FailureLimiter

ROOT = Path(__file__).resolve().parents[2]
# The table exactly as the gradebook created it before learner ids (commit 2a6824f).
OLD_SQLITE = """
CREATE TABLE submissions (
    id INTEGER PRIMARY KEY AUTOINCREMENT, learner TEXT NOT NULL, exercise TEXT NOT NULL,
    code TEXT NOT NULL, score REAL NOT NULL, max_score REAL NOT NULL, tests TEXT NOT NULL,
    status TEXT NOT NULL, submitted_at TEXT NOT NULL, grader_version TEXT NOT NULL);
CREATE INDEX submissions_learner ON submissions (learner, exercise);
"""
OLD_POSTGRES = """
CREATE TABLE submissions (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, learner TEXT NOT NULL,
    exercise TEXT NOT NULL, code TEXT NOT NULL, score DOUBLE PRECISION NOT NULL,
    max_score DOUBLE PRECISION NOT NULL, tests JSONB NOT NULL, status TEXT NOT NULL,
    submitted_at TIMESTAMPTZ NOT NULL, grader_version TEXT NOT NULL);
CREATE INDEX submissions_learner ON submissions (learner, exercise);
"""
OLD_ROWS = [("ada", "print('ada')\n"), ("Bob (guest)", "print('bob')\n"),
            ("anonymous", "print('anon')\n"), ("ada", "print('ada 2')\n")]


def sub(learner: str, learner_id: str | None, code: str = "x = 1\n", score: float = 1.0) -> Submission:
    return Submission(learner=learner, learner_id=learner_id, exercise="causal-mask", code=code,
                      score=score, max_score=4.0, tests=[], grader_version="t")


def test_two_guests_with_one_name_have_two_ids_and_a_key_is_never_stored():
    k1, k2 = ids.new_browser_key(), ids.new_browser_key()
    a = ids.resolve(ids.Claim("alice", k1))
    b = ids.resolve(ids.Claim("alice", k2))
    assert a.label == b.label == "alice (guest)" and a.id != b.id
    assert a.id == ids.resolve(ids.Claim("someone else", k1)).id  # the label plays no part
    assert k1 not in a.id and ids.key_hash(k1) != a.id[2:]
    assert len(k1) == 43 and ids.valid_browser_key(k1) and not ids.valid_browser_key("alice")
    with pytest.raises(Refused, match="no learner key"):
        ids.resolve(ids.Claim("alice", "alice"))  # a typed value is no key


def test_signed_in_and_api_identities():
    me = ids.resolve(ids.Claim("Mallory", ids.new_browser_key(), username="ada"))
    assert (me.id, me.label, me.kind, me.owns_history) == ("hf:ada", "ada", "signed_in", True)
    api = ids.resolve(ids.Claim("alice", via_api=True))
    assert (api.label, api.kind, api.owns_history) == ("alice (api)", "api", False)
    # An API label is a label: lookalikes share its id, and it is no key to anybody's history.
    assert api.id.startswith("api:") and api.id == ids.resolve(ids.Claim("ALICE", via_api=True)).id
    assert ids.resolve(ids.Claim(None, via_api=True)).label == "anonymous"


@pytest.mark.parametrize("lookalike", ["ada", "ADA", "Ada", "ａｄａ", "аda", "Ádá", "a.d_a",
                                       "ada (guest)", "ΑDΑ"])  # Cyrillic а, Greek Α
def test_a_guest_label_cannot_imitate_a_signed_in_name(lookalike):
    signed = frozenset({ids.fold("ada")})
    for via_api in (False, True):
        with pytest.raises(Refused, match="signed-in learner") as err:
            ids.resolve(ids.Claim(lookalike, ids.new_browser_key(), via_api=via_api), None, signed)
        assert err.value.reason == "bad_name" and err.value.message["zh"]
    assert ids.resolve(ids.Claim("adam", ids.new_browser_key()), None, signed).label == "adam (guest)"


def test_fold_by_hand():
    assert ids.fold("ＡＤＡ") == ids.fold("Ada") == "ada"
    assert ids.fold("P4ul_1") == ids.fold("p4u-l-l") == "p4ull"  # separators, 1 ~ l
    assert ids.fold("ada (guest)") == ids.fold("ada (api)") == "ada"


def test_recovery_codes_are_long_and_forgiving_to_retype():
    code = ids.new_recovery_code()
    raw = code.replace("-", "")
    assert len(raw) == ids.CODE_CHARS == 20 and len(code.split("-")) == 4  # 100 bits
    assert ids.recovery_hash(code) == ids.recovery_hash(f"  {code.lower()} ")
    assert ids.recovery_hash(code) == ids.recovery_hash(raw.replace("0", "O").replace("1", "I"))
    assert code not in ids.recovery_hash(code)
    for bad in ("", "short", raw + "X", None, 12345, "U" * 20 + "!"):
        assert ids.normalise_recovery_code(bad) is None
    assert len({ids.new_recovery_code() for _ in range(200)}) == 200


def test_rows_keep_id_and_label_and_history_is_by_id(book):
    k1, k2 = ids.new_browser_key(), ids.new_browser_key()
    alice, mallory = ids.guest_id(k1), ids.guest_id(k2)
    a = book.record(sub("alice (guest)", alice, "print('alice')\n", 4.0))
    m = book.record(sub("alice (guest)", mallory, "print('mallory')\n", 1.0))
    assert book.get(a).learner_id == alice and book.get(m).learner_id == mallory
    assert [r.id for r in book.history(learner_id=alice)] == [a]
    assert [r.id for r in book.history(learner_id=mallory)] == [m]
    best = book.best_scores()
    assert [(b.learner, b.learner_id, b.score) for b in best] == sorted(
        [("alice (guest)", alice, 4.0), ("alice (guest)", mallory, 1.0)], key=lambda r: r[1])
    assert book.count(learner_id=alice) == 1 and book.count("alice (guest)") == 2
    rows = list(csv.DictReader(io.StringIO(book.to_csv())))
    assert CSV_HEADER[:10] == ["id", "learner", "exercise", "score", "max_score", "passed",
                               "tests", "status", "submitted_at", "grader_version"]
    assert list(rows[0]) == CSV_HEADER and CSV_HEADER[10] == "learner_id"
    assert [(r["learner"], r["learner_id"]) for r in rows] == [("alice (guest)", alice),
                                                                ("alice (guest)", mallory)]


def test_recovery_links_another_browser_and_a_new_code_cancels_the_old(book):
    home, other = ids.new_browser_key(), ids.new_browser_key()
    me = ids.guest_id(home)
    first = ids.new_recovery_code()
    book.set_recovery(me, ids.recovery_hash(first))
    assert book.recovered_learner(ids.recovery_hash(first)) == me
    assert book.recovered_learner(ids.recovery_hash(ids.new_recovery_code())) is None
    book.link_browser(ids.key_hash(other), book.recovered_learner(ids.recovery_hash(first)))
    assert book.linked_learner(ids.key_hash(other)) == me
    assert ids.resolve(ids.Claim("me", other), book.linked_learner(ids.key_hash(other))).id == me
    second = ids.new_recovery_code()
    book.set_recovery(me, ids.recovery_hash(second))
    assert book.recovered_learner(ids.recovery_hash(first)) is None
    assert book.recovered_learner(ids.recovery_hash(second)) == me
    # Nothing readable is stored: neither the codes nor the keys appear in any table.
    dump = repr([book._query(f"SELECT * FROM {t}") for t in ("browser_keys", "recovery_codes")])
    for secret in (home, other, first, second, first.replace("-", ""), second.replace("-", "")):
        assert secret not in dump


def test_access_log_keeps_who_and_when(book):
    book.log_access("hf:teacher", "view", "best scores")
    book.log_access("password from 10.0.0.7", "export", "csv with code")
    entries = book.access_log()
    assert [(e.who, e.action, e.detail) for e in entries] == [
        ("password from 10.0.0.7", "export", "csv with code"), ("hf:teacher", "view", "best scores")]
    assert entries[0].at >= entries[1].at and entries[0].at.startswith("20")
    with pytest.raises(ValueError):
        book.log_access("x\x00", "view")


def test_an_old_sqlite_gradebook_is_migrated_and_its_rows_still_work(tmp_path):
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(OLD_SQLITE)
    for label, code in OLD_ROWS:
        conn.execute("INSERT INTO submissions (learner, exercise, code, score, max_score, tests, "
                     "status, submitted_at, grader_version) VALUES (?, 'causal-mask', ?, 2, 4, "
                     "'[]', 'graded', '2026-08-01T12:00:00.000000+00:00', 'old')", (label, code))
    conn.commit()
    conn.close()
    _check_migrated(open_gradebook(f"sqlite:///{path}"), first=True)
    _check_migrated(open_gradebook(f"sqlite:///{path}"), first=False)  # nothing changes again


def test_an_old_postgres_gradebook_is_migrated_and_its_rows_still_work(pg_url):
    import psycopg

    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(OLD_POSTGRES)
        for label, code in OLD_ROWS:
            conn.execute("INSERT INTO submissions (learner, exercise, code, score, max_score, "
                         "tests, status, submitted_at, grader_version) VALUES (%s, 'causal-mask', "
                         "%s, 2, 4, '[]', 'graded', '2026-08-01T12:00:00Z', 'old')", (label, code))
    _check_migrated(open_gradebook(pg_url), first=True)
    _check_migrated(open_gradebook(pg_url), first=False)


def _check_migrated(book, first: bool) -> None:
    new_id = "g:" + "0" * 20
    with book:
        if first:  # a new row next to the old ones, stored with its id
            book.record(sub("carol (guest)", new_id))
        rows = book.all_rows()
        assert rows[-1].learner_id == new_id and len(rows) == 5
        rows = rows[:4]
        # A bare name could only come from a Hugging Face sign-in; typed names had "(guest)".
        assert [(r.learner, r.learner_id, r.code) for r in rows] == [
            ("ada", "hf:ada", "print('ada')\n"), ("Bob (guest)", None, "print('bob')\n"),
            ("anonymous", None, "print('anon')\n"), ("ada", "hf:ada", "print('ada 2')\n")]
        assert [r.code for r in book.history(learner_id="hf:ada")] == ["print('ada 2')\n",
                                                                      "print('ada')\n"]
        assert book.count("Bob (guest)") == 1 and book.signed_in_names() == ["ada"]
        table = list(csv.DictReader(io.StringIO(book.to_csv())))
        assert [r["learner_id"] for r in table] == ["hf:ada", "", "", "hf:ada", new_id]
        best = {(b.learner, b.learner_id): b.attempts for b in book.best_scores()}
        assert best == {("ada", "hf:ada"): 2, ("Bob (guest)", None): 1, ("anonymous", None): 1,
                        ("carol (guest)", new_id): 1}


def test_cli_csv_header_keeps_the_columns_and_adds_the_id(tmp_path):
    env = {**os.environ, "LAB_DATA_DIR": str(tmp_path)}
    env.pop("DATABASE_URL", None)
    with open_gradebook(f"sqlite:///{tmp_path / 'gradebook.sqlite3'}") as book:
        book.record(sub("alice (guest)", "g:" + "a" * 20))
    out = subprocess.run([sys.executable, "-m", "grader", "gradebook", "--csv"], cwd=ROOT,
                         env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    header = out.stdout.splitlines()[0].split(",")
    assert [h for h in header if h in ("learner", "exercise", "score", "max_score", "submitted_at")] \
        == ["learner", "exercise", "score", "max_score", "submitted_at"]
    assert "learner_id" in header
    row = next(csv.DictReader(io.StringIO(out.stdout)))
    assert (row["learner"], row["learner_id"]) == ("alice (guest)", "g:" + "a" * 20)
    with open_gradebook(f"sqlite:///{tmp_path / 'gradebook.sqlite3'}") as book:
        (entry,) = book.access_log()  # the export was logged: who and when
    assert entry.who.startswith("cli:") and (entry.action, entry.detail) == ("export", "csv (command line)")
    log = subprocess.run([sys.executable, "-m", "grader", "gradebook", "--access-log"], cwd=ROOT,
                         env=env, capture_output=True, text=True, timeout=60)
    assert log.returncode == 0 and f"{entry.who}\texport" in log.stdout


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_failure_limiter_counts_per_address_and_overall():
    clock = Clock()
    lim = FailureLimiter(per_client=5, client_window_s=600, overall=20, overall_window_s=3600,
                         clock=clock)
    wrong, right = (lambda: False), (lambda: True)
    assert [lim.attempt("1.1.1.1", wrong)[0] for _ in range(5)] == [False] * 5
    ok, wait = lim.attempt("1.1.1.1", right)  # locked: even the right password is not checked
    assert not ok and wait == pytest.approx(600)
    assert lim.attempt("2.2.2.2", right) == (True, 0.0)  # another address is not locked
    # 30 addresses, two wrong tries each. Below the overall cap (5 + 15 = 20) each address
    # has its 5; past it the cap throttles: one compared try per address per 10 minutes.
    first = [lim.attempt(f"10.0.0.{i}", wrong) for i in range(30)]
    assert first == [(False, 0.0)] * 30 and lim.over_cap()
    again = [lim.attempt(f"10.0.0.{i}", wrong) for i in range(30)]
    assert all(not ok and w == pytest.approx(600) for ok, w in again)
    # A stranger still gets one try at once (no hour-long kill switch), then waits.
    assert lim.attempt("3.3.3.3", right) == (True, 0.0)
    assert lim.attempt("4.4.4.4", wrong) == (False, 0.0)
    assert lim.attempt("4.4.4.4", right)[1] == pytest.approx(600)
    # A client that logged in before (trusted) keeps its own five.
    assert [lim.attempt("5.5.5.5", wrong, trusted=True) for _ in range(4)] == [(False, 0.0)] * 4
    assert lim.attempt("5.5.5.5", right, trusted=True) == (True, 0.0)
    clock.now += 3600.5
    assert not lim.over_cap() and lim.attempt("3.3.3.3", right) == (True, 0.0)
    assert lim.locked_for("1.1.1.1") == 0.0


def test_failure_limiter_checks_under_one_lock():
    import threading

    lim = FailureLimiter(per_client=3, overall=None)
    calls = []

    def verify():
        calls.append(1)
        return False

    threads = [threading.Thread(target=lim.attempt, args=("same", verify)) for _ in range(40)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert len(calls) == 3  # 40 parallel tries, 3 compared


def test_instructor_trust_is_shared_by_handles_on_one_database(db_url):
    """The logins that exempt a client from the overall password cap live in the gradebook,
    so every replica (here: two handles on one database, each backend) sees them."""
    from gradebook import open_gradebook

    with open_gradebook(db_url) as one, open_gradebook(db_url) as two:
        assert not two.trusted_client("h" * 64)
        one.trust_client("h" * 64)
        one.trust_client("h" * 64)  # again: refreshed, not duplicated
        assert two.trusted_client("h" * 64) and not two.trusted_client("i" * 64)
        assert not two.trusted_client("h" * 64, max_age_days=0)
        assert len(two._query("SELECT * FROM instructor_trust")) == 1
