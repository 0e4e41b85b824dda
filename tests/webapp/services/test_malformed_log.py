"""A submission that forges the grader's result channel is logged on the trusted side with its
learner id and exercise; the learner's stored result keeps the generic message."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

from grader.gradebook import RateLimiter, open_gradebook
from webapp.services import submissions as glue

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "grader"))
import test_boundary as attacks  # noqa: E402 - the grader-level tests' own forged channel writes

from webapp.services.admission import WaitGate


def test_a_malformed_result_is_logged_with_the_learner_and_shown_generically(tmp_path, caplog):
    state = glue._STATE.ensure()
    saved = (state.book, state.limiter, state.gate)
    code = attacks.REF + "\n" + attacks.FORGED["unknown message kind"]
    try:
        with open_gradebook(f"sqlite:///{tmp_path / 'gb.sqlite3'}") as book:
            glue.configure(book=book, limiter=RateLimiter(100, 60), gate=WaitGate(16, 1))
            with caplog.at_level(logging.WARNING, logger="transformer_lab.app"):
                out = glue.submit(attacks.EX.id, code, "Mallory", "session-m")
            honest = glue.submit(attacks.EX.id, attacks.REF, "Ada", "session-a")
            assert isinstance(out, glue.Stored) and out.report.status == "malformed"
            assert book.get(out.submission_id).status == "malformed"  # stored for the instructor
    finally:
        glue.configure(book=saved[0], limiter=saved[1], gate=saved[2])
    logged = [r.getMessage() for r in caplog.records if "malformed grading result" in r.getMessage()]
    assert len(logged) == 1, logged  # the honest submission logs nothing
    assert out.learner.id in logged[0] and attacks.EX.id in logged[0]
    reason = out.report.malformed_reason  # the grader's words about the forged bytes
    assert reason and reason in logged[0]
    assert isinstance(honest, glue.Stored) and honest.report.status == "graded"
    shown = json.dumps(glue.to_gradescope(out), ensure_ascii=False)
    assert "private result channel" in shown  # feedback.py's generic words, en
    assert reason not in shown and "reason:" not in shown  # nothing of the log line
