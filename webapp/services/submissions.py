"""The app's one submit path: validate → admit → grade → store → a typed outcome (no gradio).

``submit`` returns a :class:`Stored` (the grader's report and the stored row) or a
:class:`Refusal` (why nothing was graded or stored). Pages read those objects; the Gradescope
JSON shape exists only at the API edge (:func:`to_gradescope`, :func:`grade_and_record`).
"""

from __future__ import annotations

import logging
import math
import threading
import time
from dataclasses import dataclass
from typing import Any, Union

from grader.gradebook import (
    ANONYMOUS,
    Claim,
    Gradebook,
    GradebookError,
    Learner,
    RateLimiter,
    Submission,
    SubmissionRejected,
    busy_message,
    clean_learner,
    open_gradebook,
    validate_submission,
    wait_message,
)
from grader.gradebook import identity as ids
from grader.gradebook.backends import shared_rate_limiter
from grader.gradebook.model import surrogate_safe_data
from grader.report import Report, render
from webapp.i18n import both
from webapp.services import fairness, grading_queue
from webapp.services.admission import SubmitConfig, WaitGate, gate_enter

log = logging.getLogger("transformer_lab.app")

# A typed name is unverified: the suffix keeps it from passing as a signed-in Hugging Face user
# (HF usernames cannot contain spaces or parentheses, so no real account ends like this).
GUEST_SUFFIX = ids.GUEST_SUFFIX
SIGNED_IN_CACHE_S = 30.0  # how long the list of signed-in names is reused between lookups


class _State:
    """The process-wide gradebook, limiter and gate, created on first use."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.book: Gradebook | None = None
        self.limiter: RateLimiter | None = None
        self.gate: WaitGate | None = None
        self.slots: threading.Semaphore | None = None  # one permit per grader worker
        self.signed_in: tuple[float, frozenset[str]] = (-1e9, frozenset())  # (when, folds)

    def ensure(self) -> _State:
        with self.lock:
            if self.limiter is None or self.gate is None:
                cfg = SubmitConfig.from_env()
                # PostgreSQL when DATABASE_URL names it: one limit for every replica.
                self.limiter = self.limiter or shared_rate_limiter(cfg.per_learner, cfg.window_s,
                                                                   "learner")
                self.gate = self.gate or WaitGate(cfg.max_in_flight, cfg.slots, cfg.max_wait_s)
            if self.book is None:
                self.book = open_gradebook()  # $DATABASE_URL, else SQLite in $LAB_DATA_DIR
        return self


_STATE = _State()


def _grading_slots(state: _State, api: Any) -> threading.Semaphore:
    """A semaphore with one permit per worker of the warm grader (sized on first use).

    Gradings beyond the workers wait on it rather than inside the grader's pool, so the time
    measured inside is the grading alone: what the gate's wait estimate needs.
    """
    if state.slots is None:
        n = len(getattr(getattr(api.default_grader(), "pool", None), "workers", ()) or [0])
        with state.lock:
            if state.slots is None:
                state.slots = threading.Semaphore(n)
                if state.gate is not None:
                    state.gate.slots = n
    return state.slots


def configure(book: Gradebook | None = None, limiter: RateLimiter | None = None,
              gate: WaitGate | None = None) -> None:
    """Replace the gradebook, limiter or gate (tests, or an app with its own settings)."""
    with _STATE.lock:
        if book is not None:
            _STATE.book = book
            _STATE.signed_in = (-1e9, frozenset())
        if limiter is not None:
            _STATE.limiter = limiter
        if gate is not None:
            _STATE.gate = gate


def gradebook() -> Gradebook:
    """The app's gradebook (opened on first use)."""
    return _STATE.ensure().book  # type: ignore[return-value]


def limiter() -> RateLimiter:
    """The app's per-learner rate limiter."""
    return _STATE.ensure().limiter  # type: ignore[return-value]


def exercise_ids() -> list[str]:
    """Ids the app offers: the grader's registry (public files only, no torch)."""
    from grader.exercises import all_exercises

    return list(all_exercises())


def learner_name(typed: str | None, signed_in: bool = False) -> str:
    """The label stored for a name: a signed-in HF username as is, a typed name with
    " (guest)" appended, no name at all as "anonymous". Raises SubmissionRejected for odd names."""
    if signed_in:
        return clean_learner(typed)
    return ids.label_for(typed, GUEST_SUFFIX)


def signed_in_folds() -> frozenset[str]:
    """Folded names of the signed-in learners in the gradebook (cached a few seconds)."""
    state = _STATE.ensure()
    when, folds = state.signed_in
    if time.monotonic() - when > SIGNED_IN_CACHE_S:
        folds = frozenset(ids.fold(name) for name in state.book.signed_in_names())
        state.signed_in = (time.monotonic(), folds)
    return folds


def resolve_learner(learner: str | Claim | Learner | None, signed_in: bool = False) -> Learner:
    """Who a submission belongs to. A Claim comes from a page (browser key, label box, verified
    sign-in); a bare name is an API caller's label (or, with ``signed_in``, a verified username).
    Raises SubmissionRejected (odd name, a name imitating a signed-in learner, no browser key)."""
    if isinstance(learner, Learner):
        return learner
    if not isinstance(learner, Claim):
        learner = Claim(username=clean_learner(learner)) if signed_in else \
            Claim(typed=learner, via_api=True)
    linked = None
    if learner.browser_key and ids.valid_browser_key(learner.browser_key) and not learner.username:
        linked = gradebook().linked_learner(ids.key_hash(learner.browser_key))
    return ids.resolve(learner, linked, signed_in_folds())


def rate_key(learner: Learner | str, session_key: str | None) -> str:
    """Who the rate limit counts: the learner's id, or the browser session for anonymous API
    callers (they all share one label)."""
    if isinstance(learner, str):  # a bare label (older callers)
        return f"anon:{session_key or 'no-session'}" if learner == ANONYMOUS else f"name:{learner}"
    if learner.kind == "api" and learner.label == ANONYMOUS:
        return f"anon:{session_key or 'no-session'}"
    return f"id:{learner.id}"


@dataclass(frozen=True)
class Refusal:
    """Nothing was graded or stored: why (a reason id and a bilingual message), and when a
    retry may help (``retry_after_s``)."""

    reason: str
    message: dict[str, str]
    exercise_id: str | None = None
    retry_after_s: int | None = None

    def text(self, lang: str = "both") -> str:
        return render(self.message, lang)


@dataclass(frozen=True)
class Stored:
    """A graded submission whose gradebook row is committed."""

    report: Report
    submission: Submission
    submission_id: int
    learner: Learner


Outcome = Union[Stored, Refusal]  # noqa: UP007 - a runtime alias, read by isinstance checks


def refusal(reason: str, message: dict[str, str], exercise_id: Any = None,
            retry_after_s: float | None = None) -> Refusal:
    """A Refusal with its retry time rounded up to whole seconds (at least 1)."""
    return Refusal(reason, message, exercise_id if isinstance(exercise_id, str) else None,
                   None if retry_after_s is None else max(1, math.ceil(retry_after_s)))


def submit(exercise_id: str, code: str | bytes, learner: str | Claim | Learner | None,
           session_key: str | None, *, signed_in: bool = False, filename: str | None = None,
           client: fairness.ClientKey | None = None,
           on_wait: fairness.OnWait | None = None) -> Outcome:
    """Grade one submission and store it; return once the row is durable.

    Order matters: input checks and the rate limit come first (cheap, nothing stored), then
    the busy gate (a full queue answers "retry in N s" at once instead of hanging), then the
    warm grader, then the gradebook. A refusal leaves no row.
    ``learner``: see :func:`resolve_learner`; the row keeps its opaque id and its label.
    ``client`` (session, address): one grading in flight per session and per address, served
    round-robin (webapp.services.fairness); ``on_wait(position, eta_s)`` while it queues.
    """
    state = _STATE.ensure()
    try:
        clean = validate_submission(code, exercise_ids(), exercise_id, None, filename=filename)
        who = resolve_learner(learner, signed_in)
    except SubmissionRejected as err:
        return refusal(err.reason, err.message, exercise_id)
    queue = grading_queue.settings().queue
    key = rate_key(who, session_key)
    ticket = queue.admit(client, count=False, learner=key)  # a place per session/address
    if isinstance(ticket, fairness.Refused):
        return refusal(ticket.reason, ticket.message, clean.exercise_id, ticket.retry_after_s)
    ok, wait = gate_enter(state.gate, ticket)
    if not ok:  # "busy" costs nothing, but a retry while one's own submission runs costs one's
        ticket.release()  # own quota (never the address's: classmates behind a NAT share it)
        if queue.in_flight_for(key):
            state.limiter.check(key)  # already at the limit: nothing more to count
        return refusal("busy", busy_message(wait), clean.exercise_id, wait)
    ok, wait = state.limiter.check(key)
    refused = None if ok else refusal(
        "rate_limited", wait_message(wait, state.limiter.per_learner, state.limiter.window_s),
        clean.exercise_id, wait)
    if refused is None and (limited := queue.charge(client)) is not None:  # per address
        refused = refusal(limited.reason, limited.message, clean.exercise_id, limited.retry_after_s)
        state.limiter.refund(key)  # refused by the address limit: the learner's quota stays
    if refused is not None:
        ticket.release()
        state.gate.leave()
        return refused
    service_s = None
    try:
        from grader import api  # imports torch on first use only
        from webapp.services.hidden_tests import ensure_hidden_tests

        ensure_hidden_tests()  # no-op unless LAB_HIDDEN_REPO is set (a Space)
        ticket.wait_turn(on_wait)  # fair queue: this client's turn on a worker
        with _grading_slots(state, api):  # waits here, so the time inside is grading alone
            t0 = time.monotonic()
            report = api.grade(clean.exercise_id, clean.code, who.label)
            service_s = time.monotonic() - t0
    except Exception as exc:  # noqa: BLE001 - the grader itself failed: say so, store nothing
        if type(exc).__name__ == "SandboxRefused":  # fail closed: the host's sandbox is too weak
            log.error("grading refused: %s", exc)
            return refusal("sandbox_unavailable", both("submit.sandbox_off"), clean.exercise_id)
        log.exception("grading %s failed", clean.exercise_id)
        return refusal("grader_error", both("submit.grader_failed"), clean.exercise_id)
    finally:
        ticket.release()
        state.gate.leave(service_s)
    if report.status == "malformed":  # trusted side only: the learner sees the generic message
        log.warning("malformed grading result: learner %s, exercise %s, reason: %s", who.id,
                    clean.exercise_id, report.malformed_reason or "(none given)")
    sub = Submission.from_report(report, clean.code, who.label, learner_id=who.id)
    try:
        sub_id = state.book.record(sub)  # returns only once the row is committed
    except (GradebookError, ValueError, TypeError):
        log.exception("storing a submission for %s failed", clean.exercise_id)
        return refusal("not_stored", both("submit.not_stored"), clean.exercise_id)
    return Stored(report, sub, sub_id, who)


def to_gradescope(outcome: Outcome, lang: str = "both") -> dict:
    """The API edge: an outcome as Gradescope's results.json (a refusal has ``refused: True``,
    its ``reason``, ``message`` in en/zh and ``retry_after_s``, and no score)."""
    if isinstance(outcome, Refusal):
        return {"score": 0.0, "max_score": 0.0, "tests": [], "output": outcome.text(lang),
                "stdout_visibility": "hidden", "refused": True, "reason": outcome.reason,
                "message": outcome.message, "retry_after_s": outcome.retry_after_s,
                "extra_data": {"exercise": outcome.exercise_id, "status": "refused",
                               "stored": False}}
    # Valid UTF-8 on the way back too: the child's text may hold lone surrogates.
    out = surrogate_safe_data(outcome.report.to_gradescope(lang))
    sub, who = outcome.submission, outcome.learner
    out["extra_data"].update(learner=who.label, learner_id=who.id,
                             submission_id=outcome.submission_id, submitted_at=sub.submitted_at,
                             grader_version=sub.grader_version, stored=True)
    return out


def grade_and_record(exercise_id: str, code: str | bytes, learner: str | Claim | Learner | None,
                     session_key: str | None, *, lang: str = "both", **kwargs: Any) -> dict:
    """:func:`submit`, answered as Gradescope JSON (the ``grade`` API and scripts)."""
    return to_gradescope(submit(exercise_id, code, learner, session_key, **kwargs), lang)


def refusal_text(result: dict, lang: str = "both") -> str | None:
    """The message of a refused Gradescope answer in ``lang`` ('en', 'zh' or 'both'); None if
    it was graded."""
    if not result.get("refused"):
        return None
    return render(result.get("message") or {}, lang)
