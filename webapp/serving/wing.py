"""The serving wing in one object: settings, the grading and training lines, and the limits, built
together from one frozen settings object (no gradio).

Many people share a small machine: this is the one place that decides who goes next and who
is refused. ``Serving.build(settings)`` makes a deployment's wing (limits in SQLite, or
PostgreSQL with ``DATABASE_URL``; each replica's lines are its own);
``Serving.local(settings)`` the same policy counted in this process (tests). The app builds one
(:func:`default`) and hands it to the pages that grade or train; nothing else holds state.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from transformer_lab.message import Refusal
from webapp.i18n import both
from webapp.serving.counters import shared_failure_limiter
from webapp.serving.limits import Limits, database_url
from webapp.serving.ratelimit import FailureLimiter, RateLimiter
from webapp.serving.settings import ServingSettings
from webapp.serving.turns import Ticket, TurnQueue
from webapp.serving.twins import Twins, busy_message
from webapp.serving.who import ClientKey, client_of_request

log = logging.getLogger("transformer_lab.app")

# The doors of the admission desk (Serving.admit): what each counts and where it waits.
KINDS = ("submit", "practice", "train", "regrade")
TRAIN_TYPICAL_S = 10.0  # a default reverse run on CPU Basic: 6-15 s, until real runs refine it


@dataclass
class Serving:
    """Who goes next (``grading``, ``training``) and who is refused (``limits`` for submissions,
    ``practice`` for public-examples runs: the same limits counted apart, sharing the bound on
    the learners an address starts; ``password_tries`` and ``recovery_tries`` count wrong
    instructor passwords and wrong recovery codes per address, shared by the replicas on
    PostgreSQL)."""

    settings: ServingSettings
    grading: TurnQueue
    training: TurnQueue
    limits: Limits
    practice: Limits | None = None
    password_tries: FailureLimiter | None = None
    recovery_tries: FailureLimiter | None = None
    # Stamped browser keys one address may be given (webapp.services.key_stamps): past it a
    # page still gets a key, unstamped; an hour's stamps age together, so this bounds the
    # aged keys a spray can hold per address (in this process).
    key_stamps: RateLimiter = field(default_factory=lambda: RateLimiter(300, 3600.0))
    # Past the global cap on wrong passwords, every try from a browser key the server did not
    # stamp an hour ago shares this rate (5 per 5 s): such keys cost nothing to mint, and a
    # spray sending a fresh one per guess was compared ~100 times a second (issue 29).
    fresh_key_tries: RateLimiter = field(default_factory=lambda: RateLimiter(5, 5.0))
    # ... and tries from keys stamped over an hour earlier share 5 per 10 minutes per address.
    aged_key_tries: RateLimiter = field(default_factory=lambda: RateLimiter(5, 600.0))
    twins: Twins | None = None  # waits for a run being trained, beside the training line

    def __post_init__(self) -> None:
        if self.twins is None:
            self.twins = Twins(self.training)
        if self.practice is None:  # a test's own limits: practice counted in this process
            self.practice = Limits.in_memory(self.settings,
                                             new_learners=self.limits.new_learners)
        self.practice.wait_key = "limit.wait_practice"  # its refusals speak of practice runs
        if self.password_tries is None:
            self.password_tries = password_limiter(self.settings, url="")
        if self.recovery_tries is None:
            self.recovery_tries = recovery_limiter(url="")

    @classmethod
    def local(cls, s: ServingSettings | None = None, **queue_kw: Any) -> Serving:
        """Counted in this process only; ``queue_kw`` (a fake ``clock``, ``typical_s``) go to
        the grading line."""
        s = s or ServingSettings()
        clock = queue_kw.get("clock")
        limits = Limits.in_memory(s, **({"clock": clock} if clock else {}))
        return cls(s, grading_line(s, **queue_kw), training_line(s, clock=clock), limits,
                   Limits.in_memory(s, **({"clock": clock} if clock else {}),
                                    new_learners=limits.new_learners))

    @classmethod
    def build(cls, s: ServingSettings, url: str | None = None) -> Serving:
        """A deployment's wing: limits in SQLite or PostgreSQL (shared by the replicas); the
        grading and training lines schedule this replica's CPUs, each address bounded in them."""
        url = database_url(url)
        limits = Limits.build(s, url)
        practice = Limits.build(s, url, scope="practice-", new_learners=limits.new_learners)
        wing = cls(s, grading_line(s), training_line(s), limits, practice,
                   password_limiter(s, url), recovery_limiter(url))
        log.info("serving: %d grading turns at once, %d in line per address (%d in all), "
                 "%d per learner; client address = %s", s.grading_slots, s.per_address_waiting,
                 s.max_waiting, s.per_learner_waiting, "the peer (no trusted proxy)"
                 if not s.forwarded_hops else
                 f"X-Forwarded-For entry {s.forwarded_hops} from the right, from "
                 + (", ".join(s.trusted_proxies) or "any peer"))
        return wing

    def admit(self, kind: str, client: ClientKey) -> Ticket | Refusal:
        """The one admission desk, for every door (Submit and the ``grade`` API, a practice
        run, Train and the ``train`` API, a teacher's regrade): the limits ``kind`` counts, then
        a place in its line, or why not.

        - ``"submit"``: the submission limits, then the grading line;
        - ``"practice"``: the same limits counted apart (practice costs no submission), sharing
          the bound on the learners an address starts, then the grading line;
        - ``"train"``: the training line, with the places of the twins waiting beside it
          (webapp.serving.twins): one run per session; a class waits;
        - ``"regrade"``: the grading line, only while nobody waits in it, and its ticket
          yields its turn to any learner who comes after it: a regrade never takes a
          learner's place.

        A refusal at any step gives back everything counted before it (practice runs leaked the
        new-learner places of refused clicks: issue 29, item 3); the ticket's ``refund()`` gives
        it back later (a file rejected once let in, a cancelled Submit). ``client`` carries the
        learner (its ``unit``): the caller resolved who is asking."""
        if kind not in KINDS:
            raise ValueError(f"unknown admission kind {kind!r}; one of {', '.join(KINDS)}")
        if kind == "train":
            return self._admit_run(client)
        line = self.grading
        if kind == "regrade" and line.snapshot()["waiting"]:
            return Refusal("line_busy", both("queue.regrade_waits"))
        limits = {"submit": self.limits, "practice": self.practice}.get(kind)
        taken = limits.take(client) if limits is not None else None
        if isinstance(taken, Refusal):
            return taken
        ticket = line.admit(client, yields=kind == "regrade")
        if isinstance(ticket, Refusal):
            if limits is not None:
                limits.give_back(taken)
            return ticket
        if limits is not None:
            ticket.give_back = lambda: limits.give_back(taken)
        return ticket

    def _admit_run(self, client: ClientKey) -> Ticket | Refusal:
        """A training run's place: the twins' places counted with the line's, then the line; a
        twin of the same address that comes after ``client`` in place order gives its place up,
        only once the line has let ``client`` in."""
        with self.twins.lock:
            refused, leaving = self.twins.room(client)
            ticket = refused or self.training.admit(client)
            if leaving is not None and not isinstance(ticket, Refusal):
                self.twins.send_away(leaving)
        if isinstance(ticket, Refusal) and ticket.reason == "learner_waiting":
            return Refusal(ticket.reason, busy_message())  # one run per browser: wait or Stop
        return ticket

    def client_of(self, request: Any) -> ClientKey:
        """Session and address of a web request (trusted proxy hops only)."""
        return client_of_request(request, self.settings.forwarded_hops,
                                 self.settings.trusted_proxies)


def password_limiter(s: ServingSettings, url: str) -> FailureLimiter:
    """Wrong instructor passwords: ``password_tries_per_address`` per address in 10 minutes,
    ``password_tries_per_hour`` from everyone (a throttle: see FailureLimiter)."""
    return shared_failure_limiter(per_client=s.password_tries_per_address, client_window_s=600,
                                  overall=s.password_tries_per_hour, overall_window_s=3600,
                                  scope="instructor", url=url)


def recovery_limiter(url: str) -> FailureLimiter:
    """Wrong recovery codes: 10 per address in 10 minutes (no overall cap: a class types codes
    at once, and a code is 100 bits: guessing stays hopeless)."""
    return shared_failure_limiter(per_client=10, client_window_s=600, overall=None,
                                  scope="recovery", url=url)


def grading_line(s: ServingSettings, **kw: Any) -> TurnQueue:
    return TurnQueue(s.grading_slots, s.per_address_waiting, s.per_learner_waiting,
                     s.max_waiting, **kw)


def training_line(s: ServingSettings, **kw: Any) -> TurnQueue:
    """One run per browser session in line (a second press while one runs is refused: the page
    says to wait or press Stop); a whole class from one address waits."""
    kw = {k: v for k, v in kw.items() if v is not None}
    return TurnQueue(s.train_slots, s.train_per_address, 1, s.train_max_waiting,
                     typical_s=TRAIN_TYPICAL_S, words="trainq", **kw)
