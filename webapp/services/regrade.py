"""Regrade an exercise's stored submissions after its hidden tests changed (issue 25, item 8).

Each row with its code kept is graded again exactly as Submit grades it (the learner's own
numbers for an exercise with variants), through the grading line as an address of its own, and
only while nobody else waits there: a class that submits during a regrade keeps every slot
(the regrade pauses, it never takes a turn from a learner). The row takes the new result and
``regrades`` keeps the old and new score (gradebook.regrades). One regrade runs at a time.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from gradebook import Submission
from gradebook.regrades import MAX_ROWS
from webapp.services import submissions
from webapp.serving.turns import Cancelled, PushedOut, Refused
from webapp.serving.who import ClientKey

log = logging.getLogger("transformer_lab.regrade")
CLIENT = ClientKey(session="regrade", address="regrade", learner="regrade")
IDLE_POLL_S = 0.25  # how often a paused regrade looks at the line again
_RUNNING = threading.Lock()  # one regrade at a time in this process


class Busy(RuntimeError):
    """Another regrade is running."""


@dataclass
class Summary:
    """What a regrade did: rows graded again, of which changed score; rows it could not grade
    (the grader failed on them: they keep their first result); learners whose best changed."""

    exercise: str
    rows: int = 0
    regraded: int = 0
    changed: int = 0
    failed: int = 0
    learners_changed: list[str] = field(default_factory=list)


def _best(book, exercise: str) -> dict[str, float]:
    return {b.learner_id or b.learner: (b.score / b.max_score if b.max_score > 0 else 0.0)
            for b in book.best_scores() if b.exercise == exercise}


def _turn(sub: submissions.Submitter, cancelled: threading.Event | None):
    """A running ticket in the grading line, taken only while no one else waits there (a
    ticket pushed out by a crowd waits for the line to empty again); None once cancelled."""
    line = sub.serving.grading
    while cancelled is None or not cancelled.is_set():
        if line.snapshot()["waiting"] == 0:
            ticket = line.admit(CLIENT)
            if not isinstance(ticket, Refused):
                try:
                    ticket.wait_turn(cancelled=cancelled)
                    return ticket
                except (PushedOut, Cancelled):
                    ticket.release()
        time.sleep(IDLE_POLL_S)
    return None


def regrade(exercise_id: str, by: str, submitter: submissions.Submitter | None = None,
            progress: Callable[[int, int], None] | None = None,
            cancelled: threading.Event | None = None, limit: int = MAX_ROWS) -> Summary:
    """Grade ``exercise_id``'s stored rows again (the newest ``limit``), oldest first;
    ``progress(done, total)`` after each. Raises Busy when another regrade runs."""
    if not _RUNNING.acquire(blocking=False):
        raise Busy(exercise_id)
    try:
        sub = submitter or submissions.default()
        book = sub.book
        rows = book.regradable(exercise_id, limit)
        summary = Summary(exercise_id, rows=len(rows))
        before = _best(book, exercise_id)
        for i, row in enumerate(rows):
            ticket = _turn(sub, cancelled)
            if ticket is None:
                break
            with ticket:
                try:
                    key = sub.numbers_key(row.learner_id) if row.learner_id else None
                    report = sub.grade(exercise_id, row.code, row.learner, key)
                except Exception:  # noqa: BLE001 - one row's failure keeps its first result
                    log.exception("regrading row %s of %s failed", row.id, exercise_id)
                    report = None
            if report is None or report.status == "malformed":
                summary.failed += 1
            else:
                new = Submission.from_report(report, row.code, row.learner, learner_id=row.learner_id)
                done = book.apply_regrade(row, new, by)
                summary.regraded += 1
                summary.changed += done.changed
            if progress is not None:
                progress(i + 1, len(rows))
        after = _best(book, exercise_id)
        summary.learners_changed = sorted(w for w in after if abs(after[w] - before.get(w, 0.0)) > 1e-9)
        return summary
    finally:
        _RUNNING.release()
