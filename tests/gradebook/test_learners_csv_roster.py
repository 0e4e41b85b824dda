"""The per-learner CSV (issue 25) lists the class list's names that never submitted, so the
teacher's spreadsheet has a line for everyone in the room (the chromium walk of 2026-12-07:
three members who had not started were missing)."""

from __future__ import annotations

import csv
import io

from gradebook import Submission
from gradebook import identity as ids
from gradebook.csv_export import learners_to_csv


def test_members_who_never_submitted_have_a_line(book):
    ada, _ = book.add_member("Ada", ids.new_recovery_code())
    book.add_member("赵敏", ids.new_recovery_code())
    book.record(Submission(learner="Ada", learner_id=ada.learner_id, exercise="causal-mask",
                           code="x = 1\n", score=6, max_score=12, tests=[]))
    text = learners_to_csv(book.best_scores(), ["causal-mask"],
                           [(m.learner_id, m.name) for m in book.members()])
    rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
    by_name = {r["learner"]: r for r in rows}
    assert set(by_name) == {"Ada", "赵敏"}
    assert by_name["Ada"]["causal-mask (/12)"] == "6" and by_name["Ada"]["total"] == "6"
    assert by_name["赵敏"]["causal-mask (/12)"] == "" and by_name["赵敏"]["total"] == "0"
    assert by_name["赵敏"]["last_submitted_at"] == ""
