"""Regrade an exercise's stored submissions after its hidden tests changed (issue 25, item 8).

Each row still graded by an older grader version, with its code kept, is graded again exactly
as Submit grades it (the learner's own numbers for an exercise with variants), through the
grading line as an address of its own, and only while nobody else waits there: a class that
submits during a regrade keeps every slot (the regrade pauses, it never takes a turn from a
learner). The row takes the new result and ``regrades`` keeps the old and new score
(gradebook.regrades).

Bounded (red team, 2026-12-07: 12 planted rows that pass, then loop once regraded, cost 122 s
of a regrade and could hold it for hours): one regrade at a time, at most ``MAX_SECONDS`` of
wall time and ``MAX_ROWS`` rows, a learner's rows skipped after ``TIMEOUTS_PER_LEARNER`` of them
ran out of time, and the teacher can stop it. A stopped regrade goes on where it stopped the
next time (the rows it did carry the new version), and one after no change finds nothing.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from gradebook import Submission, grader_version
from gradebook.regrades import MAX_ROWS
from transformer_lab.message import Refusal
from webapp.services import submissions
from webapp.serving.who import ClientKey

log = logging.getLogger("transformer_lab.regrade")
CLIENT = ClientKey(session="regrade", address="regrade", learner="regrade")
IDLE_POLL_S = 0.25  # how often a paused regrade looks at the line again
MAX_SECONDS = 900.0  # one regrade's wall time; the next one goes on from there
TIMEOUTS_PER_LEARNER = 2  # rows of one learner that ran out of time before the rest are skipped
_RUNNING = threading.Lock()  # one regrade at a time in this process
_STOP = threading.Event()  # the teacher's Stop


class Busy(RuntimeError):
    """Another regrade is running."""


@dataclass
class Summary:
    """What a regrade did: rows to grade again, graded, of which changed score; rows it could
    not grade (the grader failed on them: they keep their first result); rows left (stopped,
    out of time, or a learner's rows skipped after repeated time-outs: a later regrade takes
    them); learners whose best changed."""

    exercise: str
    rows: int = 0
    regraded: int = 0
    changed: int = 0
    failed: int = 0
    left: int = 0
    learners_changed: list[str] = field(default_factory=list)


def stop() -> bool:
    """Ask the running regrade to stop after its current row; whether one was running."""
    if not _RUNNING.locked():
        return False
    _STOP.set()
    return True


def _best(book, exercise: str) -> dict[str, float]:
    return {b.learner_id or b.learner: (b.score / b.max_score if b.max_score > 0 else 0.0)
            for b in book.best_scores() if b.exercise == exercise}


def _turn(sub: submissions.Submitter, stopped: Callable[[], bool]):
    """A running ticket in the grading line, taken only while no one else waits there (a
    ticket pushed out by a crowd waits for the line to empty again); None once stopped."""
    while not stopped():
        ticket = sub.serving.admit("regrade", CLIENT)  # only while nobody waits in line
        if not isinstance(ticket, Refusal):
            if ticket.wait(cancelled=_STOP) is None:
                return ticket
            ticket.release()
        time.sleep(IDLE_POLL_S)
    return None


def regrade(exercise_id: str, by: str, submitter: submissions.Submitter,
            progress: Callable[[int, int], None] | None = None, limit: int = MAX_ROWS,
            max_seconds: float = MAX_SECONDS, clock: Callable[[], float] = time.monotonic,
            ) -> Summary:
    """Grade ``exercise_id``'s rows from an older grader version again (the newest ``limit``),
    oldest first; ``progress(done, total)`` after each. Raises Busy when another runs."""
    if not _RUNNING.acquire(blocking=False):
        raise Busy(exercise_id)
    _STOP.clear()
    try:
        sub = submitter
        book = sub.book
        rows = book.regradable(exercise_id, grader_version(), limit)
        summary = Summary(exercise_id, rows=len(rows))
        before = _best(book, exercise_id)
        deadline = clock() + max_seconds
        timeouts: dict[str, int] = {}
        for i, light in enumerate(rows):
            who = light.learner_id or light.learner
            if timeouts.get(who, 0) >= TIMEOUTS_PER_LEARNER:
                summary.left += 1
                continue
            ticket = _turn(sub, lambda: _STOP.is_set() or clock() > deadline)
            if ticket is None:
                summary.left += len(rows) - i
                break
            row = book.get(light.id)  # its code, read now: one row in memory at a time
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
                if report.status == "timeout":
                    timeouts[who] = timeouts.get(who, 0) + 1
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
        _STOP.clear()
        _RUNNING.release()
