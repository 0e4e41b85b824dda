"""The gradebook's storage budget (gradebook.budget; second red team, issue 29: one
address stored ~2.3 GB an hour of anonymous code). Past the budget the oldest rows give up
their code and per-test results, anonymous before signed-in; every score stays."""

from __future__ import annotations

import pytest

from gradebook import Submission, open_gradebook
from gradebook.budget import BUDGET_ENV, DEFAULT_CHARS, StorageBudget, budget_from_env

TESTS = [{"name": "shape", "score": 1.0, "max_score": 1.0, "passed": True, "mistake": None},
         {"name": "values", "score": 0.0, "max_score": 1.0, "passed": False,
          "mistake": "no-scaling"}]


def row(i: int, learner_id: str, chars: int = 1000) -> Submission:
    code = f"# row {i}\n" + "x = 1  # padding\n" * (chars // 17)
    return Submission(learner=f"learner {i}", exercise="manual-attention", code=code,
                      score=float(i % 5), max_score=4.0 + (i % 5), tests=TESTS,
                      learner_id=learner_id)


def test_a_flood_keeps_the_store_under_its_budget_and_every_score(book):
    budget = 60_000
    book._budget = StorageBudget(budget)
    ids = [book.record(row(i, f"anon:{i}")) for i in range(200)]  # ~1.3 kB each: ~260 kB sent
    stored = sum(len(s.code) + len(s.tests_json()) for s in book.all_rows())
    assert stored <= budget and book.storage_budget.pruned > 100
    rows = {s.id: s for s in book.all_rows()}
    assert sorted(rows) == ids  # no row is gone
    for i, row_id in enumerate(ids):
        s = rows[row_id]
        assert s.score == float(i % 5) and s.max_score == 4.0 + (i % 5)
        assert s.mistakes == ["no-scaling"] and s.stage  # the diagnosis fields stay
    kept = [rows[i].code != "" for i in ids]
    assert kept == sorted(kept)  # the oldest went first: a run of pruned rows, then kept ones
    assert all(rows[i].code.startswith(f"# row {n}") for n, i in enumerate(ids) if kept[n])
    assert all(rows[i].tests == [] for n, i in enumerate(ids) if not kept[n])


def test_signed_in_rows_keep_their_code_while_anonymous_ones_can_go(book):
    book._budget = StorageBudget(30_000)
    signed = [book.record(row(i, f"hf:learner{i}")) for i in range(10)]  # oldest of all
    for i in range(10, 60):
        book.record(row(i, f"anon:{i}"))
    rows = {s.id: s for s in book.all_rows()}
    assert all(rows[i].code for i in signed)
    assert sum(1 for s in rows.values() if not s.code) > 20


def test_the_budget_comes_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.delenv(BUDGET_ENV, raising=False)
    assert budget_from_env() == DEFAULT_CHARS
    monkeypatch.setenv(BUDGET_ENV, "0")
    assert budget_from_env() is None
    monkeypatch.setenv(BUDGET_ENV, "5e6")
    assert budget_from_env() == 5_000_000
    for bad in ("lots", "-1"):
        monkeypatch.setenv(BUDGET_ENV, bad)
        with pytest.raises(ValueError, match=BUDGET_ENV):
            budget_from_env()
    monkeypatch.setenv(BUDGET_ENV, "0")  # no budget: nothing is ever pruned
    with open_gradebook(f"sqlite:///{tmp_path / 'g.sqlite3'}") as gb:
        for i in range(5):
            gb.record(row(i, "anon:x", chars=5000))
        assert gb.storage_budget.limit is None and all(s.code for s in gb.all_rows())


def test_a_gradebook_reopened_counts_what_it_already_holds(tmp_path):
    url = f"sqlite:///{tmp_path / 'g.sqlite3'}"
    with open_gradebook(url) as gb:
        gb._budget = StorageBudget(None)
        for i in range(40):
            gb.record(row(i, f"anon:{i}"))
    with open_gradebook(url) as gb:  # 40 rows of ~1.3 kB already there: the first record prunes
        gb._budget = StorageBudget(20_000)
        gb.record(row(40, "anon:40"))
        assert sum(len(s.code) + len(s.tests_json()) for s in gb.all_rows()) <= 20_000


def test_pruned_rows_count_nothing_so_records_do_not_rescan_the_table(tmp_path):
    """Third red team: every pruned row still counted its "" and "[]"; once the rows alone
    passed the budget, each record re-ran a SUM and a SELECT over the whole table (34 ms per
    record at 100,000 rows, growing with the table) and lost its own code at once."""
    with open_gradebook(f"sqlite:///{tmp_path / 'g.sqlite3'}") as gb:
        with gb._lock:  # 60,000 rows already pruned: 120,000 characters of "" and "[]"
            gb._conn.execute("BEGIN")
            gb._conn.executemany(
                "INSERT INTO submissions (learner, exercise, code, score, max_score, tests, "
                "status, submitted_at, grader_version, learner_id) "
                "VALUES ('bot (guest)', 'causal-mask', '', 0, 4, '[]', 'graded', "
                "'2026-09-01T09:00:00+00:00', 'test', ?)", [(f"anon:{i}",) for i in range(60_000)])
            gb._conn.execute("COMMIT")
        gb._budget = StorageBudget(100_000)
        sums = []
        query = gb._query
        gb._query = lambda sql, params=(): (sums.append(sql) if "SUM" in sql else None) or \
            query(sql, params)
        for i in range(100):  # ~27 kB of real content: under the budget
            gb.record(row(i, f"anon:new{i}", chars=20))
        assert len(sums) == 1, len(sums)  # the first record's measure only (was one per record)
        assert all(s.code for s in gb.history(learner_id="anon:new99"))  # its code is kept
