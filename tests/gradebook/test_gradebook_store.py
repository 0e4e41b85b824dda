"""Gradebook storage on SQLite and PostgreSQL: round trips, best scores, bad rows, threads, crashes."""

from __future__ import annotations

import csv
import io
import math
import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from gradebook import (
    CSV_HEADER,
    GradebookError,
    Submission,
    default_sqlite_path,
    open_gradebook,
)

REPO = Path(__file__).resolve().parents[2]


def sub(learner="ada", exercise="manual-attention", score=3.0, max_score=4.0, **kw) -> Submission:
    tests = kw.pop("tests", [{"name": "shape", "score": 1.0, "max_score": 1.0, "passed": True},
                             {"name": "values", "score": 0.0, "max_score": 1.0, "passed": False}])
    return Submission(learner=learner, exercise=exercise, code=kw.pop("code", "x = 1\n"),
                      score=score, max_score=max_score, tests=tests, **kw)


def test_round_trip_keeps_every_field(book):
    s = sub(learner="李雷", code="# 注意力 🧠\ndef f(q, k):\n    return q @ k.T  # 'quotes' \"and\"\n",
            status="graded", grader_version="test-1",
            tests=[{"name": "权重", "passed": True, "score": 0.5, "max_score": 0.5,
                    "message": {"en": "ok", "zh": "好"}}])
    new_id = book.record(s)
    got = book.get(new_id)
    assert got.id == new_id and s.id is None  # the caller's object is left alone
    for field in ("learner", "exercise", "code", "score", "max_score", "tests", "status",
                  "submitted_at", "grader_version"):
        assert getattr(got, field) == getattr(s, field), field
    assert book.get(new_id + 1000) is None


def test_submitted_at_is_stored_as_utc(book):
    # 03:04:05 at UTC+8 is 19:04:05 the previous day in UTC (hand computed).
    new_id = book.record(sub(submitted_at="2026-01-02T03:04:05+08:00"))
    assert book.get(new_id).submitted_at == "2026-01-01T19:04:05.000000+00:00"
    with pytest.raises(ValueError, match="time zone"):
        sub(submitted_at="2026-01-02T03:04:05")


def test_history_is_newest_first_and_filters(book):
    ids = [book.record(sub(exercise=ex, score=i)) for i, ex in
           enumerate(["a-ex", "b-ex", "a-ex", "a-ex"])]
    book.record(sub(learner="bob"))
    assert [r.id for r in book.history("ada")] == ids[::-1]
    assert [r.id for r in book.history("ada", "a-ex")] == [ids[3], ids[2], ids[0]]
    assert [r.id for r in book.history("ada", limit=2)] == [ids[3], ids[2]]
    assert book.history("nobody") == []
    assert book.count() == 5 and book.count("bob") == 1
    assert book.learners() == ["ada", "bob"]


def test_best_scores_pick_the_first_best_attempt(book):
    ids = [book.record(sub(exercise="a-ex", score=s)) for s in (1, 3, 3, 2)]
    book.record(sub(exercise="b-ex", score=0.5, max_score=2))
    book.record(sub(learner="bob", exercise="a-ex", score=4))
    best = {b.exercise: b for b in book.best_scores("ada")}
    assert set(best) == {"a-ex", "b-ex"}
    a = best["a-ex"]
    assert (a.score, a.max_score, a.attempts, a.best_id) == (3.0, 4.0, 4, ids[1])
    assert a.last_at == book.get(ids[3]).submitted_at
    assert best["b-ex"].score == 0.5 and best["b-ex"].attempts == 1
    everyone = {(b.learner, b.exercise): b.score for b in book.best_scores()}
    assert everyone == {("ada", "a-ex"): 3.0, ("ada", "b-ex"): 0.5, ("bob", "a-ex"): 4.0}


def test_best_scores_compare_fractions_when_max_score_changes(book):
    # 3/6 = 0.5 is worse than 2/3 even though 3 points > 2 points.
    book.record(sub(score=2, max_score=3))
    book.record(sub(score=3, max_score=6))
    (only,) = book.best_scores("ada")
    assert (only.score, only.max_score) == (2.0, 3.0)


@pytest.mark.parametrize("bad, error", [
    (dict(score=math.nan), ValueError),
    (dict(score=math.inf), ValueError),
    (dict(max_score=-1), ValueError),
    (dict(score="3"), ValueError),
    (dict(learner=""), ValueError),
    (dict(exercise="  "), ValueError),
    (dict(code="a = 1\x00"), ValueError),
    (dict(code=b"a = 1"), TypeError),
    (dict(tests=[{"value": object()}]), ValueError),
    (dict(tests=[{"value": math.nan}]), ValueError),
    (dict(tests={"not": "a list"}), TypeError),
    (dict(submitted_at="yesterday"), ValueError),
])
def test_bad_rows_are_refused_before_anything_is_stored(book, bad, error):
    book.record(sub())
    with pytest.raises(error):
        book.record(sub(**bad))
    assert book.count() == 1


def test_a_row_changed_after_construction_is_checked_again(book):
    s = sub()
    s.score = math.nan
    with pytest.raises(ValueError, match="finite"):
        book.record(s)
    with pytest.raises(TypeError, match="Submission"):
        book.record({"learner": "ada"})
    stored = book.get(book.record(sub()))
    with pytest.raises(ValueError, match="already stored"):
        book.record(stored)
    assert book.count() == 1


def test_concurrent_records_from_many_threads(book):
    n_threads, per_thread = 8, 20
    ids: list[int] = []
    lock = threading.Lock()
    errors: list[BaseException] = []

    def work(t: int) -> None:
        try:
            for i in range(per_thread):
                new_id = book.record(sub(learner=f"t{t}", code=f"# {t}-{i}\n", score=i % 4))
                with lock:
                    ids.append(new_id)
                assert book.count(f"t{t}") == i + 1  # reads interleave with other writers
        except BaseException as exc:  # noqa: BLE001 - surfaced by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(n_threads)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
    assert len(set(ids)) == n_threads * per_thread == book.count()
    codes = {r.code for r in book.all_rows()}
    assert codes == {f"# {t}-{i}\n" for t in range(n_threads) for i in range(per_thread)}


def test_csv_export_parses_back(book):
    a = book.record(sub(score=2.5, learner="ada"))
    b = book.record(sub(learner="=HYPERLINK(\"http://x\")", exercise="b-ex", score=1,
                        code='print("a,b")\n# line 2\n'))
    rows = list(csv.DictReader(io.StringIO(book.to_csv())))
    assert list(rows[0]) == CSV_HEADER
    for name in ("learner", "exercise", "score", "max_score", "submitted_at"):
        assert name in CSV_HEADER
    assert [int(r["id"]) for r in rows] == [a, b]
    assert rows[0]["score"] == "2.5" and rows[0]["max_score"] == "4"
    assert rows[0]["passed"] == "1" and rows[0]["tests"] == "2"
    assert rows[0]["submitted_at"] == book.get(a).submitted_at
    # A spreadsheet must show this name, not run it.
    assert rows[1]["learner"] == "'=HYPERLINK(\"http://x\")"
    with_code = list(csv.DictReader(io.StringIO(book.to_csv(include_code=True))))
    assert with_code[1]["code"] == 'print("a,b")\n# line 2\n'


def test_cli_prints_the_same_csv(book, db_url, capsys):
    from gradebook.cli import main

    book.record(sub())
    book.record(sub(learner="bob", score=4))
    assert main(["--csv", "--url", db_url]) == 0
    assert capsys.readouterr().out == book.to_csv()
    assert main(["--url", db_url]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 submissions from 2 learners") and "bob\tmanual-attention\t4/4\t1" in out


CHILD = """
import sys, time
from gradebook import Submission, open_gradebook
book = open_gradebook(sys.argv[1])
for i in range(3):
    new_id = book.record(Submission("ada", "manual-attention", f"# row {i}\\n", i, 4))
    print(new_id, flush=True)  # the acknowledgement the learner would see
time.sleep(120)
"""


def test_acknowledged_rows_survive_kill_9(db_url):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    child = subprocess.Popen([sys.executable, "-c", CHILD, db_url], cwd=REPO, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        acked = [int(child.stdout.readline()) for _ in range(3)]
    finally:
        child.send_signal(signal.SIGKILL)  # no chance to flush, close or commit anything more
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL, child.stderr.read()
    with open_gradebook(db_url) as fresh:
        assert [getattr(fresh.get(i), "code", None) for i in acked] == [f"# row {i}\n" for i in range(3)]
        assert fresh.count() == 3


def test_open_gradebook_picks_the_backend_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("LAB_DATA_DIR", str(tmp_path / "nested" / "data"))
    assert default_sqlite_path() == tmp_path / "nested" / "data" / "gradebook.sqlite3"
    with open_gradebook() as gb:
        assert gb.backend == "sqlite"
        gb.record(sub())
    assert (tmp_path / "nested" / "data" / "gradebook.sqlite3").is_file()
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'other.db'}")
    with open_gradebook() as gb:
        assert gb.count() == 0
    for bad in ("mysql://u@h/db", "gradebook.db", "sqlite:///"):
        with pytest.raises(ValueError, match="unsupported database URL"):
            open_gradebook(bad)


def test_unreachable_postgres_is_a_clear_error_without_the_password():
    # Port 1 on loopback: nothing listens there, so the connection is refused at once.
    with pytest.raises(GradebookError) as info:
        open_gradebook("postgresql://lab:s3cret-pw@127.0.0.1:1/lab", connect_timeout_s=2)
    assert "cannot open the PostgreSQL gradebook" in str(info.value)
    assert "s3cret-pw" not in str(info.value) and "***" in str(info.value)


def test_sqlite_is_in_wal_mode_with_full_sync(tmp_path):
    import sqlite3

    path = tmp_path / "g.db"
    with open_gradebook(f"sqlite:///{path}") as gb:
        gb.record(sub())
        # synchronous is per connection: ask the gradebook's own connection.
        assert gb._query("PRAGMA synchronous")[0][0] == 2  # 2 = FULL
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"  # persistent in the file
    conn.close()


def test_from_report_keeps_the_graders_numbers(book):
    from grader.report import Report, TestResult

    report = Report("masked-softmax", [
        TestResult("rows sum to one", 2.0, 2.0, True, {"en": "ok", "zh": "好"}),
        TestResult("padding gets zero", 0.0, 3.0, False, {"en": "no", "zh": "不"},
                   mistake="mask-after-softmax", details="Traceback ..."),
    ], status="graded", learner="ada")
    s = Submission.from_report(report, "def f(): ...\n")
    got = book.get(book.record(s))
    assert (got.learner, got.exercise, got.score, got.max_score) == ("ada", "masked-softmax", 2.0, 5.0)
    assert got.passed_count() == 1 and got.tests[1]["mistake"] == "mask-after-softmax"
    assert Submission.from_report(report, "x\n", learner="bob", status="timeout").learner == "bob"
    report.learner = None
    assert Submission.from_report(report, "x\n").learner == "anonymous"


def test_grader_version_comes_from_the_environment_when_set(monkeypatch):
    from gradebook import model

    model.grader_version.cache_clear()
    monkeypatch.setenv("LAB_GRADER_VERSION", "course-2026-v3")
    try:
        assert sub().grader_version == "course-2026-v3"
        model.grader_version.cache_clear()
        monkeypatch.delenv("LAB_GRADER_VERSION")
        assert re.fullmatch(r"\d+\.\d+\.\d+\+[0-9a-f]{10}", model.grader_version())
    finally:
        model.grader_version.cache_clear()
