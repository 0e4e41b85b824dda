"""A submission path for fairness tests: submissions.grade_and_record with a fake grader, a fresh
SQLite gradebook and a given number of grading slots; the test installs its own learner limit,
fair queue and wait gate, then sends submissions as (name, session, address). Everything is
restored afterwards."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator

from webapp.services.fairness import ClientKey


@contextlib.contextmanager
def submit_harness(monkeypatch, tmp_path, graded: Callable, slots: int = 1) -> Iterator[Callable]:
    """Yield ``install(learner_limit, queue, gate) -> send(name, session, address, code=...)``,
    where ``send`` returns the refusal reason, or "graded" when the submission was stored."""
    import grader.api
    from grader.gradebook import open_gradebook
    from webapp.services import grading_queue
    from webapp.services import submissions as glue

    monkeypatch.setattr(grader.api, "grade", graded)
    state = glue._STATE.ensure()
    saved = (state.book, state.limiter, state.gate, state.slots, grading_queue.settings().queue)
    book = open_gradebook(f"sqlite:///{tmp_path / 'gb.sqlite3'}")
    state.slots = threading.Semaphore(slots)

    def install(learner_limit, queue, gate) -> Callable[..., str]:
        glue.configure(book=book, limiter=learner_limit, gate=gate)
        grading_queue.configure(queue=queue)

        def send(name: str, session: str, address: str, code: str = "x = 1\n") -> str:
            out = glue.grade_and_record("causal-mask", code, name, session,
                                        client=ClientKey(session, address))
            return out.get("reason") or ("graded" if out["extra_data"]["stored"] else "?")
        return send

    try:
        yield install
    finally:
        glue.configure(book=saved[0], limiter=saved[1], gate=saved[2])
        state.slots = saved[3]
        grading_queue.configure(queue=saved[4])
        book.close()


def end_running_turns(live: list, gate, elapsed_s: float) -> None:
    """Every running ticket of ``live`` ends its grading turn of ``elapsed_s`` (a fake grader's
    round): it counts as used, leaves the queue and the gate, and goes from ``live``."""
    for ticket in [t for t in live if t.state == "running"]:
        ticket.used = True
        ticket.release()
        gate.leave(elapsed_s)
        live.remove(ticket)
