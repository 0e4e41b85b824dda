"""A submission that forges the grader's result channel is logged on the trusted side with its
learner id and exercise; the learner's stored result keeps the generic message."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

from gradebook import open_gradebook
from webapp.services import submissions as glue
from webapp.serving.settings import ServingSettings
from webapp.serving.wing import Serving

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "grader"))
import test_boundary as attacks  # noqa: E402 - the grader-level tests' own forged channel writes


def test_a_malformed_result_is_logged_with_the_learner_and_shown_generically(tmp_path, caplog):
    code = attacks.REF + "\n" + attacks.FORGED["unknown message kind"]
    with open_gradebook(f"sqlite:///{tmp_path / 'gb.sqlite3'}") as book:
        # The app's submit path with the real grader, its own book and wing (the app's untouched).
        sub = glue.Submitter(serving=Serving.local(ServingSettings(rate_limit=100)), book=book)
        with caplog.at_level(logging.WARNING, logger="transformer_lab.app"):
            out = sub.submit(attacks.EX.id, code, "Mallory", "session-m")
        honest = sub.submit(attacks.EX.id, attacks.REF, "Ada", "session-a")
        assert isinstance(out, glue.Stored) and out.report.status == "malformed"
        assert book.get(out.submission_id).status == "malformed"  # stored for the instructor
    logged = [r.getMessage() for r in caplog.records if "malformed grading result" in r.getMessage()]
    assert len(logged) == 1, logged  # the honest submission logs nothing
    assert out.learner.id in logged[0] and attacks.EX.id in logged[0]
    reason = out.report.malformed_reason  # the grader's words about the forged bytes
    assert reason and reason in logged[0]
    assert isinstance(honest, glue.Stored) and honest.report.status == "graded"
    shown = json.dumps(glue.to_gradescope(out), ensure_ascii=False)
    assert "private result channel" in shown  # feedback.py's generic words, en
    assert reason not in shown and "reason:" not in shown  # nothing of the log line
