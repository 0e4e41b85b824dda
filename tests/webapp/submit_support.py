"""A submission path for fairness tests: a Submitter with a fake grader, a fresh SQLite gradebook
and its own serving wing (limits counted in this process), built per test and handed over, never
patched into the app. A test sends submissions as (name, session, address)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

from webapp.services.submissions import Submitter, grade_and_record
from webapp.serving.settings import ServingSettings
from webapp.serving.who import ClientKey
from webapp.serving.wing import Serving


@contextlib.contextmanager
def submit_harness(tmp_path, graded: Callable) -> Iterator[Callable]:
    """Yield ``install(settings=None, serving=None) -> send(name, session, address, code=...)``,
    where ``send`` returns the refusal reason, or "graded" when the submission was stored.
    ``install.serving`` is the wing the last install built (its lines and limits)."""
    from gradebook import open_gradebook

    book = open_gradebook(f"sqlite:///{tmp_path / 'gb.sqlite3'}")

    def install(settings: ServingSettings | None = None,
                serving: Serving | None = None) -> Callable[..., str]:
        serving = serving or Serving.local(settings or ServingSettings(grading_slots=1))
        submitter = Submitter(serving, book, graded)
        install.serving, install.submitter = serving, submitter

        def send(name: str, session: str, address: str, code: str = "x = 1\n",
                 key: str | None = None) -> str:
            """As an API caller labelled ``name``, or with ``key`` as a page's guest (a browser
            key is the same learner from any address; an API label counts per address)."""
            from gradebook import Claim

            who = Claim(typed=name, browser_key=key) if key else name
            out = grade_and_record("causal-mask", code, who, session, submitter=submitter,
                                   client=ClientKey(session, address))
            return out.get("reason") or ("graded" if out["extra_data"]["stored"] else "?")
        return send

    try:
        yield install
    finally:
        book.close()


def end_running_turns(live: list, elapsed_s: float) -> None:
    """Every running ticket of ``live`` ends its grading turn of ``elapsed_s`` (a fake grader's
    round; the caller's clock has moved on): it counts as used, leaves the line and ``live``."""
    for ticket in [t for t in live if t.state == "running"]:
        ticket.used = True
        ticket.release()
        live.remove(ticket)
