"""The limits policy: who may send how much, in SQLite by default and in PostgreSQL with
``DATABASE_URL`` (every replica counts against one limit). No gradio.

A refusal is for floods only; a classroom behind one address stays far below every bound:

- per learner: ``rate_limit`` accepted submissions per ``rate_window_s`` (brute force: guess,
  read the hint, repeat);
- per address: ``address_rate_limit`` per window, whatever names or keys it sends;
- per address: ``new_learners_per_address`` learners it has not sent before, per
  ``new_learners_window_s``. A browser key or an API label costs nothing to invent; this bounds
  how many fair shares one address can mint for itself (webapp.serving.turns shares turns per
  learner within an address).

One student must not spend the class's allowance (red team, issue 29, item 1: 300 anonymous
`grade` calls in 31 s from the class's address refused 6 of 6 classmates for 600 s). So the
new-learner allowance is counted by origin (:func:`origin_of`): learners of the page (browser
keys) and of the API (labels, anonymous sessions) have an allowance each, a signed-in learner
(verified by Hugging Face) costs none, and one page session may start only
``NEW_PER_SESSION`` learners: its excess is refused to that session alone and never reaches the
address's count. The check and the count are one step, so three simultaneous first submissions
of one learner count once.

:meth:`Limits.take` checks all three and counts nothing when it refuses; what it counted comes
back as a :class:`Taken`, which :meth:`Limits.give_back` returns exactly (a later refusal).
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gradebook.settings import GradebookSettings
from transformer_lab.message import Refusal
from webapp.i18n import both
from webapp.serving.counters import PostgresRateLimiter, SQLiteRateLimiter
from webapp.serving.ratelimit import RateLimiter, wait_message
from webapp.serving.settings import ServingSettings
from webapp.serving.who import ClientKey

LIMITS_FILENAME = "limits.sqlite3"


def database_url(url: str | None = None) -> str:
    return url if url is not None else os.environ.get("DATABASE_URL", "").strip()


def is_postgres(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


def open_limiter(per_key: int, window_s: float, scope: str, url: str | None = None,
                 data_dir: Path | str | None = None) -> Any:
    """A limiter shared as widely as the deployment allows: PostgreSQL when ``url`` (default
    ``$DATABASE_URL``) names it, else SQLite in ``data_dir`` (default ``$LAB_DATA_DIR``, then
    ``./data``). All have ``check``, ``refund``, ``reset``, ``per_learner`` and ``window_s``."""
    url = database_url(url)
    if is_postgres(url):
        return PostgresRateLimiter(url, per_key, window_s, scope)
    folder = Path(data_dir or GradebookSettings.read("data_dir"))
    return SQLiteRateLimiter(folder / LIMITS_FILENAME, per_key, window_s, scope)


NEW_PER_SESSION = 4  # page learners one page session may start (a browser has one key)


def origin_of(unit: str) -> str:
    """Where a learner unit (webapp.services.submissions.rate_key) comes from: "signed_in"
    (``id:hf:``, verified by Hugging Face), "member" (``id:c:``, on the teacher's class list,
    joined by its link: gradebook.roster), "api" (an anonymous API session, ``anon:``, or an
    API label, ``id:api:``), else "page" (a browser key, or a bare name in tests)."""
    if unit.startswith("id:hf:"):
        return "signed_in"
    if unit.startswith("id:c:"):
        return "member"
    if unit.startswith(("anon:", "id:api:")):
        return "api"
    return "page"


class NewLearners:
    """Counts a learner against its address the first time they are seen from it, in the
    allowance of its origin (see the module); a page session's own excess is its own.

    The set of pairs seen is bounded (least recently seen go first): a forgotten pair counts
    once more, which only errs towards the flood bound."""

    def __init__(self, limiter: Any, max_seen: int = 50_000,
                 per_session: RateLimiter | None = None) -> None:
        self.limiter, self.max_seen = limiter, max_seen
        self.per_session = per_session or RateLimiter(NEW_PER_SESSION, limiter.window_s)
        self._seen: OrderedDict[tuple[str, str], None] = OrderedDict()
        self._lock = threading.Lock()

    def seen(self, address: str, learner: str) -> bool:
        with self._lock:
            return (address, learner) in self._seen

    @staticmethod
    def _key(address: str, learner: str) -> str | None:
        origin = origin_of(learner)
        if origin in ("signed_in", "member"):  # identities a flood cannot mint
            return None
        return f"new:{address}" if origin == "page" else f"new-{origin}:{address}"

    def enter(self, address: str, learner: str,
              session: str | None = None) -> tuple[bool, float, bool, bool]:
        """``(ok, wait_s, counted, by_tab)``: a pair seen before, or one its address may still
        add (``counted``: this call counted it); ``by_tab``: refused by the page session's own
        allowance, not the address's. Checking and counting hold one lock, so parallel first
        submissions of one learner count once."""
        pair = (address, learner)
        key = self._key(address, learner)
        with self._lock:
            if pair in self._seen:
                self._seen.move_to_end(pair)
                return True, 0.0, False, False
            if key is None:  # signed in or a member: no allowance to spend
                self._remember(pair)
                return True, 0.0, False, False
            by_session = session and origin_of(learner) == "page"
            if by_session:  # a page session's own excess never reaches the address
                ok, wait = self.per_session.check(f"{address}|{session}")
                if not ok:
                    return False, wait, False, True
            ok, wait = self.limiter.check(key)
            if not ok:
                if by_session:
                    self.per_session.refund(f"{address}|{session}")
                return False, wait, False, False
            self._remember(pair)
            return True, 0.0, True, False

    def _remember(self, pair: tuple[str, str]) -> None:
        self._seen[pair] = None
        while len(self._seen) > self.max_seen:
            self._seen.popitem(last=False)

    def check(self, address: str, learner: str) -> tuple[bool, float]:
        """``(True, 0.0)`` for a pair seen before or one the address may still add (counted)."""
        ok, wait, _, _ = self.enter(address, learner)
        return ok, wait

    def forget(self, address: str, learner: str, session: str | None = None) -> None:
        """Undo a first sighting counted by :meth:`enter` (a later limit, the line or a Stop
        refused it): the address's count and the page session's own (red team, issue 28: four
        Submits stopped while they waited locked the tab out for 10 minutes)."""
        key = self._key(address, learner)
        with self._lock:
            if self._seen.pop((address, learner), 1) is None and key is not None:
                self.limiter.refund(key)
                if session and origin_of(learner) == "page":
                    self.per_session.refund(f"{address}|{session}")


@dataclass(frozen=True)
class Taken:
    """What :meth:`Limits.take` counted for one admission, to give back exactly."""

    client: ClientKey
    new: bool  # this admission counted its learner as new to the address


@dataclass
class Limits:
    """Per learner, per address and new learners per address (see the module)."""

    learner: Any
    address: Any
    new_learners: NewLearners
    # What its rate refusals say: submissions ("limit.wait"), or practice runs, counted apart
    # ("limit.wait_practice": the chromium walk's learner was told of 10 "submissions" after
    # running the public examples, which the page says are not recorded)
    wait_key: str = "limit.wait"

    @classmethod
    def build(cls, s: ServingSettings, url: str | None = None,
              data_dir: Path | str | None = None, scope: str = "",
              new_learners: NewLearners | None = None) -> Limits:
        """The deployment's limits (SQLite or PostgreSQL, see :func:`open_limiter`); ``scope``
        keeps another set of the same limits apart (the public examples': "practice-"), and
        ``new_learners`` may be shared with it (one bound on the learners an address starts)."""
        return cls(open_limiter(s.rate_limit, s.rate_window_s, f"{scope}learner", url, data_dir),
                   open_limiter(s.address_rate_limit, s.rate_window_s, f"{scope}address", url,
                                data_dir),
                   new_learners or NewLearners(open_limiter(
                       s.new_learners_per_address, s.new_learners_window_s, "new-learner", url,
                       data_dir)))

    @classmethod
    def in_memory(cls, s: ServingSettings | None = None,
                  clock: Callable[[], float] = time.monotonic,
                  new_learners: NewLearners | None = None) -> Limits:
        """The same policy counted in this process only (tests, a single throwaway process)."""
        s = s or ServingSettings()
        return cls(RateLimiter(s.rate_limit, s.rate_window_s, clock),
                   RateLimiter(s.address_rate_limit, s.rate_window_s, clock),
                   new_learners or NewLearners(RateLimiter(
                       s.new_learners_per_address, s.new_learners_window_s, clock)))

    def admit(self, client: ClientKey) -> Refusal | None:
        """Count one accepted submission of ``client`` (its learner set), or why not."""
        taken = self.take(client)
        return taken if isinstance(taken, Refusal) else None

    def take(self, client: ClientKey) -> Taken | Refusal:
        """Count one accepted submission of ``client`` (its learner set) and say what was
        counted, or why not (then nothing is counted)."""
        learner, address = client.unit, client.address
        new = False
        if address:
            ok, wait, new, by_tab = self.new_learners.enter(address, learner, client.session)
            if not ok:  # the tab's own allowance, or its address's: each says which
                lim = self.new_learners.per_session if by_tab else self.new_learners.limiter
                return Refusal("new_learners", both(
                    "queue.new_learners_tab" if by_tab else "queue.new_learners",
                    n=lim.per_learner, window=max(1, round(lim.window_s / 60)),
                    wait=max(1, math.ceil(wait))), wait)
        ok, wait = self.learner.check(learner)
        if not ok:
            self._undo(client, new, learner_too=False)
            lim = self.learner
            return Refusal("rate_limited", wait_message(wait, lim.per_learner, lim.window_s,
                                                        self.wait_key), wait)
        if address:
            ok, wait = self.address.check(f"addr:{address}")
            if not ok:
                self._undo(client, new, learner_too=True)
                lim = self.address
                return Refusal("rate_limited", wait_message(wait, lim.per_learner, lim.window_s,
                                                            self.wait_key), wait)
        return Taken(client, new)

    def give_back(self, taken: Taken) -> None:
        """Return exactly what :meth:`take` counted (the line refused it, or nothing was
        graded after all)."""
        self.refund(taken.client, taken.new)

    def is_new(self, client: ClientKey) -> bool:
        """Whether :meth:`admit` would count ``client``'s learner as new to its address."""
        return bool(client.address) and not self.new_learners.seen(client.address, client.unit)

    def refund(self, client: ClientKey, new: bool = False) -> None:
        """Give back what :meth:`admit` counted (the line refused the submission after all);
        ``new``: it counted the learner as new to the address (:meth:`is_new` before admit)."""
        self.learner.refund(client.unit)
        if client.address:
            self.address.refund(f"addr:{client.address}")
        if new and client.address:
            self.new_learners.forget(client.address, client.unit, client.session)

    def _undo(self, client: ClientKey, new: bool, learner_too: bool) -> None:
        if learner_too:
            self.learner.refund(client.unit)
        if new and client.address:
            self.new_learners.forget(client.address, client.unit, client.session)
