"""Sliding-window limits kept in this process: accepted tries per key, failed tries per client,
and their messages (no gradio). The same counts kept in SQLite or PostgreSQL, shared by
processes and replicas: webapp.serving.counters."""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable

from webapp.i18n import both


class RateLimiter:
    """At most ``per_learner`` accepted submissions per learner in any ``window_s`` seconds.

    A fast grader invites brute force (guess, submit, read the hint, repeat); a sliding
    window stops bursts without punishing steady work. The default, 10 a minute, is well
    above a learner's honest pace. State lives in this process; with several replicas use
    webapp.serving.limits.open_limiter (SQLite or PostgreSQL) so one limit holds across them. Thread-safe.
    """

    def __init__(self, per_learner: int = 10, window_s: float = 60.0,
                 clock: Callable[[], float] = time.monotonic, max_tracked: int = 10_000) -> None:
        if isinstance(per_learner, bool) or not isinstance(per_learner, int) or per_learner < 1:
            raise ValueError(f"per_learner must be a positive integer, got {per_learner!r}")
        if not (isinstance(window_s, (int, float)) and math.isfinite(window_s) and window_s > 0):
            raise ValueError(f"window_s must be a positive number of seconds, got {window_s!r}")
        self.per_learner = per_learner
        self.window_s = float(window_s)
        self._clock = clock
        self._max_tracked = max_tracked
        self._hits: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def check(self, learner: str) -> tuple[bool, float]:
        """``(True, 0.0)`` and count this submission, or ``(False, seconds until allowed)``.

        A refused attempt is not counted, so retrying early does not push the wait further.
        """
        now = self._clock()
        with self._lock:
            hits = self._hits.get(learner)
            if hits is None:
                if len(self._hits) >= self._max_tracked:
                    self._sweep(now)
                hits = self._hits[learner] = deque()
            while hits and hits[0] <= now - self.window_s:
                hits.popleft()
            if len(hits) < self.per_learner:
                hits.append(now)
                return True, 0.0
            return False, max(0.0, hits[0] + self.window_s - now)

    def refund(self, learner: str) -> None:
        """Give back ``learner``'s latest counted attempt (another limit refused it after all)."""
        with self._lock:
            hits = self._hits.get(learner)
            if hits:
                hits.pop()

    def reset(self, learner: str | None = None) -> None:
        """Forget one learner's submissions (an instructor's override), or everyone's."""
        with self._lock:
            if learner is None:
                self._hits.clear()
            else:
                self._hits.pop(learner, None)

    def _sweep(self, now: float) -> None:
        # Bound memory when many distinct names come and go (anonymous sessions, a flood).
        for key in [k for k, v in self._hits.items() if not v or v[-1] <= now - self.window_s]:
            del self._hits[key]
        if len(self._hits) >= self._max_tracked:  # all still active: drop the oldest quarter
            oldest = sorted(self._hits, key=lambda k: self._hits[k][-1])
            for key in oldest[: max(1, len(oldest) // 4)]:
                del self._hits[key]


Gate = Callable[[], "tuple[bool, float]"]  # a second check a try must pass: (ok, wait_s)


class FailureLimiter:
    """Limit *failed* tries (a password, a recovery code) per client and in all.

    Counting per browser session is no limit: every new session starts from zero. Here a
    client (an address, or a browser that logged in before) gets ``per_client`` failures per
    ``client_window_s``. All clients together get ``overall`` failures per
    ``overall_window_s`` (``None``: no overall cap); past it the cap *throttles*, it does not
    lock everybody out: a client the caller marks ``trusted`` (it logged in successfully
    before) keeps its own allowance, and any other client may still try ``over_cap_per_client``
    times per ``client_window_s``. So a crowd of wrong guesses slows every stranger down but
    cannot keep the real instructor out. Successes are not counted. :meth:`attempt` checks,
    verifies and counts under one lock, so parallel tries cannot slip past the count.
    Thread-safe; state lives in this process.
    """

    def __init__(self, per_client: int = 5, client_window_s: float = 600.0,
                 overall: int | None = 20, overall_window_s: float = 3600.0,
                 clock: Callable[[], float] = time.monotonic,
                 over_cap_per_client: int = 1) -> None:
        for name, value in (("per_client", per_client), ("overall", overall),
                            ("over_cap_per_client", over_cap_per_client)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or value < 1):
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        self.per_client, self.client_window_s = per_client, float(client_window_s)
        self.overall, self.overall_window_s = overall, float(overall_window_s)
        self.over_cap_per_client = min(over_cap_per_client, per_client)
        self._clock = clock
        self._clients = RateLimiter(per_client, client_window_s, clock)
        # Only whether the cap is reached matters, so the newest ``overall`` failures suffice.
        self._all: deque[float] = deque(maxlen=overall or 1)
        self._lock = threading.Lock()

    def over_cap(self, now: float | None = None) -> bool:
        """Whether all clients together have reached the overall cap."""
        now = self._clock() if now is None else now
        while self._all and self._all[0] <= now - self.overall_window_s:
            self._all.popleft()
        return self.overall is not None and len(self._all) >= self.overall

    def _wait(self, client: str, now: float, trusted: bool) -> float:
        hits = self._clients._hits.get(client) or deque()
        while hits and hits[0] <= now - self.client_window_s:
            hits.popleft()
        allowed = self.per_client
        if not trusted and self.over_cap(now):
            allowed = self.over_cap_per_client  # throttled, not locked out
        if len(hits) >= allowed:
            return max(0.0, hits[-allowed] + self.client_window_s - now)
        return 0.0

    def attempt(self, client: str, verify: Callable[[], bool], trusted: bool = False,
                over_cap_gate: Gate | None = None) -> tuple[bool, float]:
        """``(True, 0)`` when ``verify()`` succeeds; ``(False, 0)`` when it fails (counted);
        ``(False, wait_s)`` when locked out (``verify`` is not called at all). ``trusted``:
        this client logged in successfully before, so the overall cap does not throttle it.
        ``over_cap_gate``: past the overall cap, an untrusted try must also pass this gate
        (``() -> (ok, wait_s)``: a rate shared by clients whose names cost nothing to mint);
        a try it holds back is not compared and not counted."""
        with self._lock:
            now = self._clock()
            wait = self._wait(client, now, trusted)
            if wait > 0:
                return False, wait
            if over_cap_gate is not None and not trusted and self.over_cap(now):
                ok, wait = over_cap_gate()
                if not ok:
                    return False, max(wait, 1.0)
            if verify():
                return True, 0.0
            self._clients.check(client)  # counts one failure for this client
            if self.overall is not None:  # without an overall cap there is nothing to keep
                self._all.append(now)
            return False, 0.0

    def locked_for(self, client: str, trusted: bool = False) -> float:
        """Seconds before ``client`` may try again (0 when it may now)."""
        with self._lock:
            return self._wait(client, self._clock(), trusted)


def locked_message(retry_after_s: float) -> dict[str, str]:
    """What to tell someone locked out after too many wrong tries, in English and Chinese."""
    wait = max(1, math.ceil(retry_after_s))
    return both("limit.locked", wait=wait, minutes=math.ceil(wait / 60))


def wait_message(retry_after_s: float, per_learner: int, window_s: float,
                 key: str = "limit.wait") -> dict[str, str]:
    """What to tell a learner who is over the limit, in English and Simplified Chinese
    (``key``: the submissions' sentence, or the practice runs' "limit.wait_practice")."""
    return both(key, wait=max(1, math.ceil(retry_after_s)), n=per_learner,
                window=f"{window_s:g}")
