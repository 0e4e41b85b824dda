"""The app's submit path: check, rate-limit, grade with the warm grader, store, then answer (no gradio)."""

from __future__ import annotations

import logging
import math
import os
import statistics
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Any

from grader.gradebook import (
    ANONYMOUS,
    BusyGate,
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
from grader.gradebook.model import surrogate_safe_data
from grader.gradebook.ratelimit import shared_rate_limiter
from grader.report import render
from webapp.services import fairness

log = logging.getLogger("transformer_lab.app")

# A typed name is unverified: the suffix keeps it from passing as a signed-in Hugging Face user
# (HF usernames cannot contain spaces or parentheses, so no real account ends like this).
GUEST_SUFFIX = ids.GUEST_SUFFIX
SIGNED_IN_CACHE_S = 30.0  # how long the list of signed-in names is reused between lookups


def _env_number(name: str, default: float, cast=float) -> Any:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = cast(raw)
    except ValueError:
        raise ValueError(f"{name} must be a number, got {raw!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a positive number, got {raw!r}")
    return value


@dataclass
class GlueConfig:
    """Admission settings; each may be overridden by the environment variable in its comment."""

    per_learner: int = 10  # LAB_RATE_LIMIT: accepted submissions per learner per window
    window_s: float = 60.0  # LAB_RATE_WINDOW_S
    max_in_flight: int = 16  # LAB_MAX_IN_FLIGHT: gradings running or waiting; more are refused
    max_wait_s: float = 15.0  # LAB_MAX_WAIT_S: refuse ("busy, retry in N s") past this expected wait
    slots: int = 1  # LAB_GRADING_SLOTS: gradings that run at once (the grader's worker count)

    @classmethod
    def from_env(cls) -> GlueConfig:
        d = cls()
        return cls(per_learner=_env_number("LAB_RATE_LIMIT", d.per_learner, int),
                   window_s=_env_number("LAB_RATE_WINDOW_S", d.window_s),
                   max_in_flight=_env_number("LAB_MAX_IN_FLIGHT", d.max_in_flight, int),
                   max_wait_s=_env_number("LAB_MAX_WAIT_S", d.max_wait_s),
                   # The grader's worker count when the deployment sets it: that many grade at once.
                   slots=_env_number("LAB_GRADING_SLOTS",
                                     _env_number("LAB_GRADER_WORKERS", d.slots, int), int))  # fmt: skip


class WaitGate:
    """Admit a grading while its expected wait stays under ``max_wait_s``; refuse the rest at once.

    Same interface as grader.gradebook.BusyGate (enter / leave / in_flight), but the estimate
    uses the *median* of recent grading times: one submission that runs to its wall limit must
    not turn everyone away, while a flood of them (every recent grading slow) does. At most
    ``max_in_flight`` gradings run or wait in any case. Thread-safe.
    """

    def __init__(self, max_in_flight: int = 16, slots: int = 1, max_wait_s: float = 15.0,
                 typical_s: float = 0.5, window: int = 20) -> None:
        if max_in_flight < 1 or slots < 1 or max_wait_s <= 0 or typical_s <= 0:
            raise ValueError("max_in_flight and slots must be >= 1; max_wait_s and typical_s > 0")
        self.max_in_flight, self.slots, self.max_wait_s = max_in_flight, slots, float(max_wait_s)
        # typical_s counts as five earlier gradings, so the first slow one cannot swing the median.
        self._recent: deque[float] = deque([float(typical_s)] * 5, maxlen=max(window, 5))
        self._in_flight = 0
        self._lock = threading.Lock()

    @property
    def in_flight(self) -> int:
        return self._in_flight

    @property
    def typical_s(self) -> float:
        """Median of recent grading times (seconds)."""
        return statistics.median(self._recent)

    def expected_wait(self, ahead: int) -> float:
        """Seconds before a new grading starts with ``ahead`` others running or waiting."""
        return math.ceil(max(0, ahead - self.slots + 1) / self.slots) * self.typical_s

    def enter(self, ahead: int | None = None) -> tuple[bool, float]:
        """``(True, 0.0)`` and hold a place (call leave() after), or ``(False, retry_after_s)``.

        ``ahead``: the gradings that really come before this one (running or ahead of it in
        the fair queue); by default every grading in flight. A newcomer goes ahead of flooding
        clients' backlogs, so their backlog must not make the newcomer look too late to admit.
        """
        with self._lock:
            wait = self.expected_wait(self._in_flight if ahead is None else ahead)
            if self._in_flight < self.max_in_flight and wait <= self.max_wait_s:
                self._in_flight += 1
                return True, 0.0
            # Retry after the rounds of gradings that bring the expected wait back into budget.
            typical = self.typical_s
            return False, max(1.0, math.ceil((wait - self.max_wait_s) / typical) * typical)

    def leave(self, elapsed_s: float | None = None) -> None:
        """Give the place back; ``elapsed_s`` (grading time) refines the wait estimate."""
        with self._lock:
            if self._in_flight <= 0:
                raise RuntimeError("WaitGate.leave() called more often than enter()")
            self._in_flight -= 1
            if elapsed_s is not None and math.isfinite(elapsed_s) and elapsed_s >= 0:
                self._recent.append(max(float(elapsed_s), 0.01))


def gate_enter(gate: BusyGate | WaitGate, ticket: fairness.Ticket) -> tuple[bool, float]:
    """Ask the busy gate for a place; a WaitGate counts only the gradings that come before this
    ticket in the fair queue (the running ones and those scheduled ahead of it)."""
    if isinstance(gate, WaitGate):
        return gate.enter(ticket.position() + gate.slots - 1)
    return gate.enter()


class _State:
    """The process-wide gradebook, limiter and gate, created on first use."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.book: Gradebook | None = None
        self.limiter: RateLimiter | None = None
        self.gate: BusyGate | WaitGate | None = None
        self.slots: threading.Semaphore | None = None  # one permit per grader worker
        self.signed_in: tuple[float, frozenset[str]] = (-1e9, frozenset())  # (when, folds)

    def ensure(self) -> _State:
        with self.lock:
            if self.limiter is None or self.gate is None:
                cfg = GlueConfig.from_env()
                # PostgreSQL when DATABASE_URL names it: one limit for every replica.
                self.limiter = self.limiter or shared_rate_limiter(cfg.per_learner, cfg.window_s,
                                                                   "learner")  # fmt: skip
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
              gate: BusyGate | WaitGate | None = None) -> None:
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
    """Ids the app offers, read from the public exercise.json files (no torch import)."""
    from webapp.views.report_view import exercise_choices

    return [ex_id for _, ex_id in exercise_choices()]


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


def refusal(reason: str, message: dict[str, str], exercise_id: Any = None,
            retry_after_s: float | None = None, lang: str = "both") -> dict:
    """A Gradescope-shaped answer with no score, saying why nothing was graded or stored."""
    return {"score": 0.0, "max_score": 0.0, "tests": [], "output": render(message, lang),
            "stdout_visibility": "hidden", "refused": True, "reason": reason, "message": message,
            "retry_after_s": None if retry_after_s is None else max(1, math.ceil(retry_after_s)),
            "extra_data": {"exercise": exercise_id if isinstance(exercise_id, str) else None,
                           "status": "refused", "stored": False}}  # fmt: skip


def grade_and_record(exercise_id: str, code: str | bytes, learner: str | Claim | Learner | None,
                     session_key: str | None, *, signed_in: bool = False, lang: str = "both",
                     filename: str | None = None, client: fairness.ClientKey | None = None,
                     on_wait: fairness.OnWait | None = None) -> dict:
    """Grade one submission and store it; return the Gradescope JSON once the row is durable.

    Order matters: input checks and the rate limit come first (cheap, nothing stored), then
    the busy gate (a full queue answers "retry in N s" at once instead of hanging), then the
    warm grader, then the gradebook. A refusal returns ``refusal(...)`` (``refused: True``,
    ``message`` in en/zh, ``retry_after_s`` when waiting helps) and leaves no row.
    ``learner``: see :func:`resolve_learner`; the row keeps its opaque id and its label.
    ``client`` (session, address): one grading in flight per session and per address, served
    round-robin (webapp.services.fairness); ``on_wait(position, eta_s)`` while it queues.
    """
    state = _STATE.ensure()
    try:
        clean = validate_submission(code, exercise_ids(), exercise_id, None, filename=filename)
        who = resolve_learner(learner, signed_in)
    except SubmissionRejected as err:
        return refusal(err.reason, err.message, exercise_id, lang=lang)
    ticket = fairness.settings().queue.admit(client)  # per session/address, before any count
    if isinstance(ticket, fairness.Refused):
        return refusal(ticket.reason, ticket.message, clean.exercise_id, ticket.retry_after_s, lang)
    ok, wait = state.limiter.check(rate_key(who, session_key))
    if not ok:
        ticket.release()
        msg = wait_message(wait, state.limiter.per_learner, state.limiter.window_s)
        return refusal("rate_limited", msg, clean.exercise_id, wait, lang)
    ok, wait = gate_enter(state.gate, ticket)
    if not ok:
        ticket.release()
        return refusal("busy", busy_message(wait), clean.exercise_id, wait, lang)
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
            return refusal("sandbox_unavailable", {
                "en": "Grading is switched off on this server: its sandbox is weaker than required. "
                      "Please tell your instructor; nothing was stored.",
                "zh": "本服务器已关闭评分：其沙箱隔离级别低于要求。请告知你的老师；本次提交未被保存。"},
                clean.exercise_id, lang=lang)
        log.exception("grading %s failed", clean.exercise_id)
        return refusal("grader_error", {
            "en": "The grader failed on our side; nothing was stored. Please submit again.",
            "zh": "评分器在服务器端出错，本次提交未被保存。请重新提交。"}, clean.exercise_id, lang=lang)
    finally:
        ticket.release()
        state.gate.leave(service_s)
    sub = Submission.from_report(report, clean.code, who.label, learner_id=who.id)
    try:
        sub_id = state.book.record(sub)  # returns only once the row is committed
    except (GradebookError, ValueError, TypeError):
        log.exception("storing a submission for %s failed", clean.exercise_id)
        return refusal("not_stored", {
            "en": "Your code was graded but the result could not be saved. Please submit again.",
            "zh": "代码已评分，但结果未能保存。请重新提交。"}, clean.exercise_id, lang=lang)
    # Valid UTF-8 on the way back too: the child's text may hold lone surrogates.
    out = surrogate_safe_data(report.to_gradescope(lang))
    out["extra_data"].update(learner=who.label, learner_id=who.id, submission_id=sub_id, submitted_at=sub.submitted_at,
                             grader_version=sub.grader_version, stored=True)
    return out


def refusal_text(result: dict, lang: str = "both") -> str | None:
    """The message of a refused submission in ``lang`` ('en', 'zh' or 'both'); None if graded."""
    if not result.get("refused"):
        return None
    return render(result.get("message") or {}, lang)
