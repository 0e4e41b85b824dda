"""Admission of a grading: the submit path's settings and the gate that refuses when the wait is long.

No gradio. The fair queue (webapp.services.fairness) orders gradings per client; this gate decides,
before a grading queues, whether its expected wait fits the budget.
"""

from __future__ import annotations

import math
import os
import statistics
import threading
from collections import deque
from dataclasses import dataclass
from typing import Any

from webapp.services import fairness


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
class SubmitConfig:
    """Admission settings; each may be overridden by the environment variable in its comment."""

    per_learner: int = 10  # LAB_RATE_LIMIT: accepted submissions per learner per window
    window_s: float = 60.0  # LAB_RATE_WINDOW_S
    max_in_flight: int = 16  # LAB_MAX_IN_FLIGHT: gradings running or waiting; more are refused
    max_wait_s: float = 15.0  # LAB_MAX_WAIT_S: refuse ("busy, retry in N s") past this expected wait
    # (past it only an address's extra submissions: the fair queue bounds a newcomer's wait)
    slots: int = 1  # LAB_GRADING_SLOTS: gradings that run at once (the grader's worker count)

    @classmethod
    def from_env(cls) -> SubmitConfig:
        d = cls()
        return cls(per_learner=_env_number("LAB_RATE_LIMIT", d.per_learner, int),
                   window_s=_env_number("LAB_RATE_WINDOW_S", d.window_s),
                   max_in_flight=_env_number("LAB_MAX_IN_FLIGHT", d.max_in_flight, int),
                   max_wait_s=_env_number("LAB_MAX_WAIT_S", d.max_wait_s),
                   # The grader's worker count when the deployment sets it: that many grade at once.
                   slots=_env_number("LAB_GRADING_SLOTS",
                                     _env_number("LAB_GRADER_WORKERS", d.slots, int), int))


class WaitGate:
    """Admit a grading while its expected wait stays under ``max_wait_s``; refuse the rest at once.

    The estimate uses the *median* of recent grading times: one submission that runs to its wall
    limit must not turn everyone away, while a flood of them (every recent grading slow) does. At most
    ``max_in_flight`` gradings run or wait in any case. Thread-safe.

    Through the fair queue (:func:`gate_enter`) a *newcomer* (an address with nothing else in
    flight and no grading ended in the last minute) skips the wait budget: the queue serves it ahead of every backlog, after at most one
    turn per other address, so refusing it would only let a flood keep it out (red team 3, R2:
    eight slow addresses got a first-time learner refused ten times). Other submissions (an
    address with work in flight, or one graded a moment ago: red team 5, N1) keep the budget and
    may fill only ``backlog_cap`` places; the rest stay free for newcomers.
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

    @property
    def backlog_cap(self) -> int:
        """Places that extra submissions of busy addresses may fill (half, rounded up)."""
        return self.max_in_flight - self.max_in_flight // 2

    def enter(self, ahead: int | None = None, newcomer: bool = False,
              cap: int | None = None) -> tuple[bool, float]:
        """``(True, 0.0)`` and hold a place (call leave() after), or ``(False, retry_after_s)``.

        ``ahead``: the gradings that really come before this one (running or ahead of it in
        the fair queue); by default every grading in flight. A newcomer goes ahead of flooding
        clients' backlogs, so their backlog must not make the newcomer look too late to admit.
        ``newcomer``: admit while a place is free, whatever the wait (the fair queue bounds it).
        ``cap``: places this grading may find taken at most (default ``max_in_flight``).
        """
        with self._lock:
            wait = self.expected_wait(self._in_flight if ahead is None else ahead)
            typical = self.typical_s
            if newcomer:
                if self._in_flight < self.max_in_flight:
                    self._in_flight += 1
                    return True, 0.0
                return False, max(1.0, typical)  # every place taken: a round frees one
            limit = self.max_in_flight if cap is None else min(cap, self.max_in_flight)
            if self._in_flight < limit and wait <= self.max_wait_s:
                self._in_flight += 1
                return True, 0.0
            # Retry after the rounds of gradings that bring the expected wait back into budget.
            return False, max(1.0, math.ceil((wait - self.max_wait_s) / typical) * typical)

    def leave(self, elapsed_s: float | None = None) -> None:
        """Give the place back; ``elapsed_s`` (grading time) refines the wait estimate."""
        with self._lock:
            if self._in_flight <= 0:
                raise RuntimeError("WaitGate.leave() called more often than enter()")
            self._in_flight -= 1
            if elapsed_s is not None and math.isfinite(elapsed_s) and elapsed_s >= 0:
                self._recent.append(max(float(elapsed_s), 0.01))


def gate_enter(gate: WaitGate, ticket: fairness.Ticket) -> tuple[bool, float]:
    """Ask the gate for a place, counting only the gradings that come before this ticket in the
    fair queue (the running ones and those scheduled ahead of it). A newcomer (its address has
    nothing else in flight and no grading of it ended in the last minute: FairQueue.newcomer)
    skips the wait budget; others keep it and the backlog cap."""
    ahead = ticket.position() + gate.slots - 1
    if ticket.queue.newcomer(ticket):
        return gate.enter(ahead, newcomer=True)
    return gate.enter(ahead, cap=gate.backlog_cap)
