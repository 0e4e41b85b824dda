"""The mistakes and first failing stage the gradebook keeps per submission (issue 20, class
view): derived from the per-test results, stored on SQLite and PostgreSQL, read by the class
view's one query, filled in for gradebooks made before the columns, and in the CSV."""

from __future__ import annotations

import csv
import io
import json
import sqlite3

import pytest

from gradebook import CSV_HEADER, Submission, open_gradebook
from gradebook.csv_export import mistake_name

# Per-test results as the grader's report stores them (dataclasses.asdict(TestResult)).
PASS = {"name": "Part A: scores", "name_zh": "A 部分：分数", "passed": True, "score": 1.0,
        "max_score": 1.0, "mistake": None, "message": {"en": "Passed.", "zh": "通过。"}}
NAMED = {"name": "Part A: weights", "name_zh": "A 部分：权重", "passed": False, "score": 0.0,
         "max_score": 1.0, "mistake": "softmax-wrong-axis",
         "message": {"en": "The softmax runs over the wrong axis: ...", "zh": "softmax 的维度错了"}}
SECOND = {"name": "batched", "name_zh": "批量", "passed": False, "score": 0.0, "max_score": 1.0,
          "mistake": "no-scale", "message": {"en": "Scores are not scaled: ...", "zh": "…"}}
OBSERVED = {"name": "2-D inputs", "name_zh": "二维输入", "passed": False, "score": 0.0,
            "max_score": 1.0, "mistake": None,
            "message": {"en": "`scores` right, `weights` not: each row of `weights` ...",
                        "zh": "`scores`正确，`weights` 不正确：…"}}


def sub(tests, learner="ada (guest)", learner_id="g:" + "a" * 20, **kw) -> Submission:
    values = dict(learner=learner, learner_id=learner_id, exercise="manual-attention",
                  code="x = 1\n", score=sum(t["score"] for t in tests),
                  max_score=sum(t["max_score"] for t in tests), tests=tests)
    values.update(kw)
    return Submission(**values)


def test_the_mistakes_and_stage_come_from_the_tests():
    s = sub([PASS, NAMED, SECOND, dict(SECOND, name="again")])
    assert s.mistakes == ["softmax-wrong-axis", "no-scale"]  # test order, once each
    assert (s.stage, s.stage_zh) == ("Part A: weights", "A 部分：权重")
    full = sub([PASS])
    assert (full.mistakes, full.stage, full.stage_zh) == ([], "", "")
    # An unnamed failure: the stage observation's first differing output is added.
    seen = sub([PASS, OBSERVED])
    assert seen.mistakes == [] and seen.stage == "2-D inputs · `weights`"
    assert seen.stage_zh == "二维输入 · `weights`"
    # Given explicitly, they are kept (and checked).
    given = sub([PASS, NAMED], mistakes=["zero-fill"], stage="mine")
    assert given.mistakes == ["zero-fill"] and given.stage == "mine"
    with pytest.raises(ValueError, match="slug"):
        sub([PASS], mistakes=["no scale, or worse"])


def test_they_are_stored_and_read_back_on_each_backend(book):
    first = book.record(sub([PASS, NAMED, SECOND], submitted_at="2026-08-01T10:00:00+00:00"))
    second = book.record(sub([PASS, PASS], learner="bo (guest)", learner_id="g:" + "b" * 20,
                             submitted_at="2026-08-01T11:00:00+00:00"))
    got = book.get(first)
    assert got.mistakes == ["softmax-wrong-axis", "no-scale"]
    assert (got.stage, got.stage_zh) == ("Part A: weights", "A 部分：权重")
    assert book.get(second).mistakes == [] and book.get(second).stage == ""
    rows = book.class_rows()
    assert [(r.id, r.mistakes, r.stage) for r in rows] == [
        (first, ("softmax-wrong-axis", "no-scale"), "Part A: weights"), (second, (), "")]
    assert rows[0].who == "id:g:" + "a" * 20 and rows[0].fraction == pytest.approx(1 / 3)
    assert rows[0].submitted_at.startswith("2026-08-01T10:00:00")
    # "this lesson": only the rows since the start time (an aware time, any zone).
    assert [r.id for r in book.class_rows("2026-08-01T12:30:00+02:00")] == [second]
    assert book.class_rows("2026-08-01T11:00:01+00:00") == []


def test_the_csv_gains_the_mistakes_their_names_and_the_stage(book):
    book.record(sub([PASS, NAMED, SECOND]))
    book.record(sub([PASS, PASS]))
    rows = list(csv.DictReader(io.StringIO(book.to_csv())))
    # Older columns keep their places; the Chinese names and stage come last.
    assert CSV_HEADER[11:] == ["mistakes", "mistake_names", "stage", "mistake_names_zh",
                               "stage_zh"]
    assert rows[0]["mistakes"] == "softmax-wrong-axis,no-scale"
    names = f"{mistake_name('manual-attention', 'softmax-wrong-axis')}; " \
            f"{mistake_name('manual-attention', 'no-scale')}"
    assert rows[0]["mistake_names"] == names and rows[0]["stage"] == "Part A: weights"
    assert (rows[1]["mistakes"], rows[1]["mistake_names"], rows[1]["stage"]) == ("", "", "")
    zh = f"{mistake_name('manual-attention', 'softmax-wrong-axis', 'zh')}；" \
         f"{mistake_name('manual-attention', 'no-scale', 'zh')}"
    assert rows[0]["mistake_names_zh"] == zh and rows[0]["stage_zh"] == "A 部分：权重"
    assert zh != names and not any("a" <= ch <= "z" for ch in zh.replace("softmax", ""))
    assert (rows[1]["mistake_names_zh"], rows[1]["stage_zh"]) == ("", "")


def test_a_mistake_name_is_its_registered_title(tmp_path, monkeypatch):
    # Issue 23: the title is registered with the mistake (its exercise's mistakes.json, or the
    # contract file for the mistakes every exercise uses), never cut from the message; an id
    # nobody registered reads as words. (Was: the first clause of the message, by regex.)
    hidden = tmp_path / "hidden" / "manual-attention"
    (hidden / "mistakes").mkdir(parents=True)
    (hidden / "tests.py").write_text("")
    (hidden / "mistakes.json").write_text(json.dumps({"tiny-slip": {
        "title": {"en": "A tiny slip", "zh": "小失误"},
        "en": "The scale is off: divide by 2.", "zh": "缩放不对：除以 2。"}}))
    (hidden / "mistakes" / "tiny-slip.py").write_text("")
    monkeypatch.setenv("LAB_HIDDEN_DIR", str(tmp_path / "hidden"))
    from grader.exercises import get

    monkeypatch.setattr(get("manual-attention"), "_cache", {})
    mistake_name.cache_clear()
    try:
        assert mistake_name("manual-attention", "tiny-slip") == "A tiny slip"
        assert mistake_name("manual-attention", "tiny-slip", "zh") == "小失误"
        assert mistake_name("manual-attention", "never-seen") == "never seen"
        assert mistake_name("manual-attention", "wrong-return-type", "zh") == "返回值的类型或 dtype 不对"
        assert mistake_name("no-such-exercise", "changes-input") == "Changes an input in place"
        assert mistake_name("no-such-exercise", "no-scale") == "no scale"
    finally:
        mistake_name.cache_clear()


# The submissions table as it was before the diagnosis columns (with learner ids).
OLD_SQLITE = """
CREATE TABLE submissions (
    id INTEGER PRIMARY KEY AUTOINCREMENT, learner TEXT NOT NULL, exercise TEXT NOT NULL,
    code TEXT NOT NULL, score REAL NOT NULL, max_score REAL NOT NULL, tests TEXT NOT NULL,
    status TEXT NOT NULL, submitted_at TEXT NOT NULL, grader_version TEXT NOT NULL,
    learner_id TEXT);
"""
OLD_POSTGRES = """
CREATE TABLE submissions (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, learner TEXT NOT NULL,
    exercise TEXT NOT NULL, code TEXT NOT NULL, score DOUBLE PRECISION NOT NULL,
    max_score DOUBLE PRECISION NOT NULL, tests JSONB NOT NULL, status TEXT NOT NULL,
    submitted_at TIMESTAMPTZ NOT NULL, grader_version TEXT NOT NULL, learner_id TEXT);
"""
OLD_ROWS = [json.dumps([PASS, NAMED, SECOND]), json.dumps([PASS]), "[]",
            json.dumps([PASS, OBSERVED])]


def _check_migrated(book, first: bool) -> None:
    with book:
        if first:
            book.record(sub([NAMED]))
        rows = book.all_rows()
        assert [(r.mistakes, r.stage) for r in rows] == [
            (["softmax-wrong-axis", "no-scale"], "Part A: weights"), ([], ""), ([], ""),
            ([], "2-D inputs · `weights`"), (["softmax-wrong-axis"], "Part A: weights")]
        assert rows[0].stage_zh == "A 部分：权重" and rows[0].code == "old 0"
        assert [r.mistakes for r in book.class_rows()] == [tuple(r.mistakes) for r in rows]
        table = list(csv.DictReader(io.StringIO(book.to_csv())))
        assert [r["mistakes"] for r in table] == ["softmax-wrong-axis,no-scale", "", "", "",
                                                  "softmax-wrong-axis"]


def test_an_old_sqlite_gradebook_gains_the_columns_filled_from_its_tests(tmp_path):
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(OLD_SQLITE)
    for i, tests in enumerate(OLD_ROWS):
        conn.execute("INSERT INTO submissions (learner, exercise, code, score, max_score, tests, "
                     "status, submitted_at, grader_version, learner_id) VALUES ('ada (guest)', "
                     "'manual-attention', ?, 1, 3, ?, 'graded', '2026-08-01T12:00:00.000000+00:00'"
                     ", 'old', ?)", (f"old {i}", tests, "g:" + "a" * 20))
    conn.commit()
    conn.close()
    _check_migrated(open_gradebook(f"sqlite:///{path}"), first=True)
    _check_migrated(open_gradebook(f"sqlite:///{path}"), first=False)  # nothing changes again
    cols = [r[1] for r in sqlite3.connect(path).execute("PRAGMA table_info(submissions)")]
    assert cols[-3:] == ["mistakes", "stage", "stage_zh"]


def test_an_old_postgres_gradebook_gains_the_columns_filled_from_its_tests(pg_url):
    import psycopg

    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(OLD_POSTGRES)
        for i, tests in enumerate(OLD_ROWS):
            conn.execute("INSERT INTO submissions (learner, exercise, code, score, max_score, "
                         "tests, status, submitted_at, grader_version, learner_id) VALUES "
                         "('ada (guest)', 'manual-attention', %s, 1, 3, %s, 'graded', "
                         "'2026-08-01T12:00:00Z', 'old', %s)", (f"old {i}", tests, "g:" + "a" * 20))
    _check_migrated(open_gradebook(pg_url), first=True)
    _check_migrated(open_gradebook(pg_url), first=False)
