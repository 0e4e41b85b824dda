"""The gradebook's storage budget: what submissions keep beyond their scores is bounded.

A row's score, status, mistakes and stage are small; its code and per-test results are not
(a 97 kB anonymous submission stored ~77 kB, and one address could store ~2.3 GB an hour:
second red team, issue 29). So the characters of ``code`` and ``tests`` over every row are
kept under ``LAB_GRADEBOOK_CHARS`` (default 2,000,000,000, about 2 GB of ASCII code; ``0``
switches the budget off). Past it, the oldest rows give up their code and per-test results
(``code`` becomes ``""``, which no graded submission has: the gradebook refuses empty code,
and ``tests`` ``[]``) until the total is back under nine tenths of the budget: rows of learners
who did not sign in first, then signed-in ones. Scores, mistakes and stages stay, so the
class view, Progress and both CSVs keep every grade.

A class stays far below the budget (30 learners × 400 submissions × 8 kB is 96 MB), so only a
flood ever prunes; what it prunes is oldest first, never a refusal: one student cannot keep a
classmate from being graded or recorded. Each process keeps its running total (read once with
one SUM, re-read at every prune), so replicas sharing PostgreSQL each keep the shared total
under the budget, pruning a little more than needed at worst.
"""

from __future__ import annotations

import threading
from typing import Protocol

from gradebook.model import Submission
from gradebook.settings import GradebookSettings


class Book(Protocol):
    """What the budget needs of a gradebook (gradebook.store.Gradebook, which imports
    this module: no import back)."""

    TESTS_TEXT: str

    def _query(self, sql: str, params: tuple = ()) -> list[tuple]: ...

    def _execute(self, sql: str, params: tuple = ()) -> None: ...


BUDGET_ENV = GradebookSettings.variables()["storage_chars"].name  # LAB_GRADEBOOK_CHARS
DEFAULT_CHARS = GradebookSettings.storage_chars  # its default, declared in gradebook/settings.py
KEEP_FRACTION = 0.9  # a prune goes down to this share of the budget: one prune per flood burst
BATCH = 500  # rows pruned per statement
NOT_KEPT = ""  # the code of a row whose code was not kept (no graded row has empty code)
FLOOR = 2  # what a pruned row still holds: "" and "[]"


def budget_from_env() -> int | None:
    """The budget in characters from ``LAB_GRADEBOOK_CHARS`` (None: no budget)."""
    return GradebookSettings.read("storage_chars") or None


class StorageBudget:
    """The running total of one gradebook's ``code`` and ``tests`` characters, and the prune
    that keeps it under ``limit`` (see the module)."""

    def __init__(self, limit: int | None) -> None:
        if limit is not None and limit < 1:
            raise ValueError(f"a storage budget is at least 1 character, got {limit}")
        self.limit = limit
        self.total: int | None = None  # unknown until the first row is recorded
        self.pruned = 0  # rows whose code and per-test results this process let go
        self._lock = threading.Lock()

    @staticmethod
    def size_of(sub: Submission) -> int:
        """The characters a row of ``sub`` counts against the budget: what a prune could let
        go (a pruned row's "" and "[]" count nothing, so a table of pruned rows never keeps
        every record rescanning it: third red team)."""
        return max(0, len(sub.code) + len(sub.tests_json()) - FLOOR)

    def recorded(self, book: Book, sub: Submission) -> int:
        """Count a row just committed; prune when past the budget. Returns rows pruned."""
        if self.limit is None:
            return 0
        with self._lock:
            if self.total is None:
                self.total = self._measure(book)
            else:
                self.total += self.size_of(sub)
            if self.total <= self.limit:
                return 0
            return self._prune(book)

    def _measure(self, book: Book) -> int:
        rows = book._query(f"SELECT COALESCE(SUM(LENGTH(code) + LENGTH({book.TESTS_TEXT})), 0), "
                           "COUNT(*) FROM submissions")
        return max(0, int(rows[0][0]) - FLOOR * int(rows[0][1]))

    def _prune(self, book: Book) -> int:
        """Let the oldest rows' code and per-test results go, anonymous before signed-in, until
        the total is under ``KEEP_FRACTION`` of the budget (lock held)."""
        assert self.limit is not None
        self.total, target, pruned = self._measure(book), int(self.limit * KEEP_FRACTION), 0
        size = f"LENGTH(code) + LENGTH({book.TESTS_TEXT})"
        while self.total > target:
            rows = book._query(
                f"SELECT id, {size} FROM submissions WHERE {size} > {FLOOR} "
                "ORDER BY CASE WHEN learner_id LIKE ? THEN 1 ELSE 0 END, id "
                f"LIMIT {BATCH}", ("hf:%",))
            if not rows:
                break
            chosen, freed = [], 0
            for row_id, chars in rows:
                chosen.append(int(row_id))
                freed += int(chars) - FLOOR  # what stays: "" and "[]"
                if self.total - freed <= target:
                    break
            marks = ", ".join("?" * len(chosen))
            book._execute(f"UPDATE submissions SET code = ?, tests = '[]' WHERE id IN ({marks})",
                          (NOT_KEPT, *chosen))
            self.total -= freed
            pruned += len(chosen)
        self.pruned += pruned
        return pruned
