"""Every graded submission is stored whatever its text, lone surrogates included (red-team F5).

A lone surrogate ("\\ud800") is a valid Python str and valid JSON, so it arrives through the
API, in a learner's code, or in a message the grader's child raises; UTF-8, SQLite and
PostgreSQL all refuse it. Both backends must still store the row, and the app path
(submissions.grade_and_record, the real grader) must answer "stored".
"""

from __future__ import annotations

import json

import pytest

from gradebook import Claim, Submission, clean_code, open_gradebook
from gradebook import identity as ids

LONE = "\ud800"
# The red team's source: the exception message carries a lone surrogate (no frame forging).
RAISES = 'raise ValueError("bad \\ud800 shape")\n'
# The same, with the surrogate itself in the code, as a JSON "\ud800" through the API gives.
RAW = f'x = "{LONE}"\nraise ValueError("bad " + x + " shape")\n'
# A child that prints one and raises an exception whose str() is one.
PRINTS = ('import sys\nsys.stdout.write("\\udcff")\nclass E(Exception):\n'
          '    def __str__(self):\n        return "\\udc80"\nraise E()\n')


def test_a_row_full_of_lone_surrogates_is_stored_on_each_backend(book):
    sub = Submission(learner="mallory (guest)", learner_id="g:" + "m" * 20,
                     exercise="manual-attention", code=RAW, score=0, max_score=12,
                     tests=[{"name": f"case {LONE}", "passed": False, "message": f"bad {LONE}",
                             LONE: [LONE, 1]}], status=f"load_error{LONE}")
    sub_id = book.record(sub)
    back = book.get(sub_id)
    assert back is not None and back.code == 'x = "\\ud800"\nraise ValueError("bad " + x + " shape")\n'
    assert back.tests[0]["message"] == "bad \\ud800" and back.status == "load_error\\ud800"
    for text in (back.code, json.dumps(back.tests, ensure_ascii=False), book.to_csv(True)):
        text.encode("utf-8")  # valid UTF-8 everywhere: storable, exportable, showable
    book.log_access(f"password from {LONE}", "refused", f"wrong {LONE}")
    assert book.access_log(1)[0].who == "password from \\ud800"


def test_clean_code_escapes_a_lone_surrogate_and_keeps_its_meaning():
    text = clean_code(RAW)
    text.encode("utf-8")
    ns: dict = {}
    exec(compile(text.split("\n")[0], "<learner>", "exec"), ns)  # noqa: S102 - our own fixture
    assert ns["x"] == LONE  # inside a string literal the escape is the same character


@pytest.fixture
def glue(db_url):
    """The app's submit path (a Submitter with the real grader) with a fresh gradebook on each
    backend and its own serving wing, no limits in the way; the app's own is not touched."""
    from webapp.services import submissions
    from webapp.serving.settings import ServingSettings
    from webapp.serving.wing import Serving

    book = open_gradebook(db_url)
    submitter = submissions.Submitter(serving=Serving.local(ServingSettings(rate_limit=100)),
                                      book=book)
    yield submissions, submitter, book
    book.close()


@pytest.mark.slow
def test_grade_and_record_stores_every_surrogate_submission(glue):
    submissions, submitter, book = glue
    who = Claim(typed="mallory", browser_key=ids.new_browser_key())
    for src in (RAISES, RAW, PRINTS):
        res = submissions.grade_and_record("manual-attention", src, who, "s-mallory",
                                           submitter=submitter)
        assert not res.get("refused"), res.get("reason")
        extra = res["extra_data"]
        assert extra["stored"] is True and extra["status"] != "refused"
        json.dumps(res, ensure_ascii=False).encode("utf-8")  # the answer is valid UTF-8 too
        row = book.get(extra["submission_id"])
        assert row is not None and row.learner == "mallory (guest)"
        assert row.code.encode("utf-8") and LONE not in row.code
    assert book.count() == 3
