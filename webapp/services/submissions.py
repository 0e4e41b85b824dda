"""The app's one submit path: validate → who → with a turn → grade → store → a typed outcome
(no gradio).

``Submitter.submit`` returns a :class:`Stored` (the grader's report and the stored row) or a
:class:`Refusal` (why nothing was graded or stored). Pages read those objects; the Gradescope
JSON shape exists only at the API edge (:func:`to_gradescope`, :func:`grade_and_record`). Who
goes next and who is refused is the serving wing's (webapp.serving): this module only asks it.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, Union

from gradebook import (
    ANONYMOUS,
    DEFAULT_LIMITS,
    Claim,
    Gradebook,
    GradebookError,
    Learner,
    Refused,
    Submission,
    check_exercise,
    clean_learner,
    open_gradebook,
    validate_submission,
)
from gradebook import identity as ids
from gradebook.model import surrogate_safe_data
from gradebook.roster import is_member_id
from grader.api import Report, render
from transformer_lab.message import Refusal
from webapp.i18n import both
from webapp.serving import wing
from webapp.serving.turns import OnWait, Ticket
from webapp.serving.who import ClientKey

log = logging.getLogger("transformer_lab.app")

# A typed name is unverified: the suffix keeps it from passing as a signed-in Hugging Face user
# (HF usernames cannot contain spaces or parentheses, so no real account ends like this).
GUEST_SUFFIX = ids.GUEST_SUFFIX
T = TypeVar("T")
SIGNED_IN_CACHE_S = 30.0  # how long the list of signed-in names is reused between lookups


def exercise_ids() -> list[str]:
    """Ids the app offers: the grader's registry (public files only, no torch)."""
    from grader.api import all_exercises

    return list(all_exercises())


def learner_name(typed: str | None, signed_in: bool = False) -> str:
    """The label stored for a name: a signed-in HF username as is, a typed name with
    " (guest)" appended, no name at all as "anonymous". Raises Refused for odd names."""
    if signed_in:
        return clean_learner(typed)
    return ids.label_for(typed, GUEST_SUFFIX)


def rate_key(learner: Learner | str, session_key: str | None,
             address: str | None = None) -> str:
    """Who the rate limit (and the line) counts: the learner's id, or the browser session for
    anonymous API callers (they all share one label). An API label is anyone's to type, so it
    counts per client ``address`` too: a stranger typing "alice" elsewhere spent the real
    alice's limit and places in line (red team, issue 17); the gradebook id stays shared."""
    if isinstance(learner, str):  # a bare label (older callers)
        return f"anon:{session_key or 'no-session'}" if learner == ANONYMOUS else f"name:{learner}"
    if learner.kind == "api" and learner.label == ANONYMOUS:
        return f"anon:{session_key or 'no-session'}"
    if learner.kind == "api":
        return f"id:{learner.id}@{address or ''}"
    return f"id:{learner.id}"


@dataclass(frozen=True)
class Stored:
    """A graded submission whose gradebook row is committed."""

    report: Report
    submission: Submission
    submission_id: int
    learner: Learner


Outcome = Union[Stored, Refusal]  # noqa: UP007 - a runtime alias, read by isinstance checks


def cheap_size_check(code: object) -> None:
    """Refuse, before any limit is counted or anything parsed, what is too large to be a
    submission at all (the full checks, notebooks included, run once it is let in)."""
    size = len(code) if isinstance(code, (str, bytes, bytearray, memoryview)) else 0
    if size > DEFAULT_LIMITS.max_upload_bytes:
        from gradebook import clean_code

        clean_code(code)  # raises its own bilingual "too large" refusal, before reading on


def _default_grade(exercise_id: str, code: str, label: str, learner_id: str | None = None) -> Report:
    from grader import api  # imports torch on first use only
    from webapp.services.hidden_tests import ensure_hidden_tests

    ensure_hidden_tests()  # no-op unless LAB_HIDDEN_REPO is set (a Space)
    return api.grade(exercise_id, code, label, learner_id)


class Submitter:
    """Grades and stores submissions for one app: the ``serving`` wing that gives turns and
    counts limits, a gradebook (``book``; opened on first use when not given), and the
    grading function (the warm grader; a test passes a fake). The app's own is made by
    webapp.lab.Lab."""

    def __init__(self, serving: wing.Serving, book: Gradebook | None = None,
                 grade: Callable[[str, str, str, str], Report] | None = None) -> None:
        self.serving, self._book = serving, book
        self.grade = grade or _default_grade
        self._lock = threading.Lock()
        self._signed_in: tuple[float, frozenset[str]] = (-1e9, frozenset())  # (when, folds)

    @property
    def book(self) -> Gradebook:
        with self._lock:
            if self._book is None:
                self._book = open_gradebook()  # $DATABASE_URL, else SQLite in $LAB_DATA_DIR
            return self._book

    def numbers_key(self, learner_id: str) -> str:
        """Whose own numbers an exercise with variants draws (grader/variants.py): the learner's
        id signed with this deployment's secret, so nobody can compute anyone's numbers, or
        search ids for a convenient draw, offline (red team, 2026-12-07: an unkeyed hash of the
        id let a label be chosen whose numbers had the lesson's answers)."""
        secret = self.book.server_secret("learner numbers")
        return "n:" + hmac.new(secret, learner_id.encode("utf-8", "replace"), hashlib.sha256).hexdigest()[:32]

    def use_gradebook(self, book: Gradebook) -> Gradebook | None:
        """Store in ``book`` from now on (an instructor's fresh term, a test); the old one."""
        with self._lock:
            old, self._book = self._book, book
            self._signed_in = (-1e9, frozenset())
        return old

    def signed_in_folds(self) -> frozenset[str]:
        """Folded names of the signed-in learners in the gradebook (cached a few seconds)."""
        when, folds = self._signed_in
        if time.monotonic() - when > SIGNED_IN_CACHE_S:
            folds = frozenset(ids.fold(name) for name in self.book.signed_in_names())
            self._signed_in = (time.monotonic(), folds)
        return folds

    def resolve_learner(self, learner: str | Claim | Learner | None,
                        signed_in: bool = False) -> Learner:
        """Who a submission belongs to. A Claim comes from a page (browser key, label box,
        verified sign-in); a bare name is an API caller's label (or, with ``signed_in``, a
        verified username). Raises Refused (odd name, a name imitating a signed-in
        learner, no browser key)."""
        if isinstance(learner, Learner):
            return learner
        if not isinstance(learner, Claim):
            learner = Claim(username=clean_learner(learner)) if signed_in else \
                Claim(typed=learner, via_api=True)
        linked = member = None
        if learner.browser_key and ids.valid_browser_key(learner.browser_key) and \
                not learner.username:
            linked = self.book.linked_learner(ids.key_hash(learner.browser_key))
            member = self.book.member_name(linked) if is_member_id(linked) else None
        return ids.resolve(learner, linked, self.signed_in_folds(), member)

    def _practice_who(self, learner: Claim, session_key: str | None,
                      client: ClientKey) -> ClientKey | Refusal:
        try:
            who = self.resolve_learner(learner)
        except Refused as err:
            return err.refusal
        return client.as_learner(rate_key(who, session_key, client.address))

    def practice_client(self, learner: Claim, session_key: str | None,
                        client: ClientKey) -> tuple[ClientKey, Refusal | None]:
        """A public-examples run's admission without its wait: as the learner (its unit), under
        the same limits as Submit, counted apart (practice costs no submission), and the same
        bound on the learners an address starts; or why not. Counts (its place in the line is
        given back at once); :meth:`practice_turn` keeps the place."""
        who = self._practice_who(learner, session_key, client)
        if isinstance(who, Refusal):
            return client, who
        ticket = self.serving.admit("practice", who)
        if isinstance(ticket, Refusal):
            return who, ticket
        ticket.release()
        return who, None

    def practice_turn(self, learner: Claim, session_key: str | None,
                      client: ClientKey) -> Ticket | Refusal:
        """A public-examples run's place in the grading line, through the admission desk
        (:meth:`webapp.serving.wing.Serving.admit`, "practice"), or why not."""
        who = self._practice_who(learner, session_key, client)
        if isinstance(who, Refusal):
            return who
        return self.serving.admit("practice", who)

    def practice(self, learner: Claim, session_key: str | None, client: ClientKey,
                 run: Callable[[], T]) -> T | Refusal:
        """``run()`` (the public examples, graded; nothing stored) once the learner's turn in
        the grading line comes, or why not (a refusal keeps nothing counted)."""
        ticket = self.practice_turn(learner, session_key, client)
        if isinstance(ticket, Refusal):
            return ticket
        with ticket:
            refused = ticket.wait()
            return refused if refused is not None else run()

    def submit(self, exercise_id: str, code: str | bytes,
               learner: str | Claim | Learner | None, session_key: str | None, *,
               signed_in: bool = False, filename: str | None = None,
               client: ClientKey | None = None, on_wait: OnWait | None = None,
               cancelled: threading.Event | None = None) -> Outcome:
        """Grade one submission and store it; return once the row is durable.

        cheap checks (the exercise, the size) → who (the learner, within the client's
        address) → the limits (counted only when admitted) → a place in the grading line →
        the costly checks (decoding, a notebook's parse: only once let in, issue 19) → its turn
        (position and ETA through ``on_wait(position, eta_s)``) → grade → store. The ticket is
        released in one place, whatever happens; a refusal leaves no row and gives back what
        the limits counted. ``cancelled`` set while it waits (the page's stream was closed:
        the learner left or pressed Stop): it leaves the line, and nothing is graded or stored.
        """
        try:
            ex = check_exercise(exercise_id, exercise_ids())
            cheap_size_check(code)
            who = self.resolve_learner(learner, signed_in)
        except Refused as err:
            return err.refusal.about(exercise_id)
        client = client or ClientKey(session_key)
        client = client.as_learner(rate_key(who, session_key, client.address))
        ticket = self.serving.admit("submit", client)  # a refusal keeps nothing counted
        if isinstance(ticket, Refusal):
            return ticket.about(ex)
        with ticket:  # the one release path: the turn ends here, graded or not
            try:
                clean = validate_submission(code, exercise_ids(), ex, None, filename=filename)
            except Refused as err:  # let in, but nothing to grade: nothing counted
                ticket.refund()
                return err.refusal.about(ex)
            told: list[tuple[int, float]] = []

            def tell(position: int, eta_s: float) -> None:
                told.append((position, eta_s))
                on_wait(position, eta_s)

            refused = ticket.wait(tell if on_wait else None, cancelled)
            if refused is not None:  # pushed out of a full line, or the learner left
                return refused.about(clean.exercise_id)
            if on_wait is not None and not told:  # a worker at once: still say "grading"
                on_wait(0, 0.0)
            try:  # an exercise with variants grades this learner's own numbers
                report = self.grade(clean.exercise_id, clean.code, who.label, self.numbers_key(who.id))
            except Exception as exc:  # noqa: BLE001 - the grader failed: say so, store nothing
                if type(exc).__name__ == "SandboxUnavailable":  # fail closed: sandbox too weak
                    log.error("grading refused: %s", exc)
                    return Refusal("sandbox_unavailable", both("submit.sandbox_off"),
                                   exercise_id=clean.exercise_id)
                log.exception("grading %s failed", clean.exercise_id)
                return Refusal("grader_error", both("submit.grader_failed"),
                               exercise_id=clean.exercise_id)
        if report.status == "malformed":  # trusted side only: the learner sees the generic text
            log.warning("malformed grading result: learner %s, exercise %s, reason: %s", who.id,
                        clean.exercise_id, report.malformed_reason or "(none given)")
        sub = Submission.from_report(report, clean.code, who.label, learner_id=who.id)
        try:
            sub_id = self.book.record(sub)  # returns only once the row is committed
        except (GradebookError, ValueError, TypeError):
            log.exception("storing a submission for %s failed", clean.exercise_id)
            return Refusal("not_stored", both("submit.not_stored"), exercise_id=clean.exercise_id)
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
                     session_key: str | None, *, submitter: Submitter, lang: str = "both",
                     **kwargs: Any) -> dict:
    """``submitter``'s :meth:`Submitter.submit`, answered as Gradescope JSON (scripts, tests)."""
    return to_gradescope(submitter.submit(exercise_id, code, learner, session_key, **kwargs),
                         lang)


def refusal_text(result: dict, lang: str = "both") -> str | None:
    """The message of a refused Gradescope answer in ``lang`` ('en', 'zh' or 'both'); None if
    it was graded."""
    if not result.get("refused"):
        return None
    return render(result.get("message") or {}, lang)
