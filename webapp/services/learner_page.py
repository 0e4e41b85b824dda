"""One learner's page for the instructor, as data: every attempt with its code, score, named
mistakes and the feedback the learner was shown, each beside the learner's previous attempt
at the same exercise (a diff). No gradio; the page checks who may see it before every draw.

Bounded by design: the newest ``MAX_ATTEMPTS`` attempts, and a diff of at most ``MAX_DIFF``
lines, whatever a learner sent (a flood of 5 MB submissions must not make the teacher's page
do unbounded work)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from grader.gradebook import Gradebook, Submission

MAX_ATTEMPTS = 40  # newest first; the page says how many more there are
MAX_DIFF = 200  # lines of one diff
MAX_CODE_CHARS = 20_000  # of one attempt's code shown (and compared)
MAX_CODE_LINES = 400  # of one attempt's code compared (difflib is quadratic in lines)


@dataclass(frozen=True)
class Attempt:
    """One attempt as the learner's page shows it."""

    sub: Submission
    number: int  # 1 = the learner's first attempt at this exercise
    diff: list[str]  # unified diff against the previous attempt (empty for the first)
    cut: bool  # the code or the diff was shortened for the page


@dataclass(frozen=True)
class LearnerPage:
    key: str
    label: str
    learner_id: str | None
    attempts: list[Attempt]  # newest first
    total: int  # attempts in the gradebook


def parse_key(key: str) -> tuple[str | None, str | None]:
    """(learner_id, label) of a class-view learner key ("id:<id>" or "label:<label>")."""
    if not isinstance(key, str):
        return None, None
    if key.startswith("id:") and len(key) > 3:
        return key[3:], None
    if key.startswith("label:") and len(key) > 6:
        return None, key[6:]
    return None, None


def load(book: Gradebook, key: str) -> LearnerPage | None:
    """The page of the learner behind ``key`` (a class-view key), or None when unknown."""
    learner_id, label = parse_key(key)
    if learner_id is None and label is None:
        return None
    rows = book.history(label, learner_id=learner_id)  # newest first
    if learner_id is None:  # by label: only the rows stored before ids (as the grid counts)
        rows = [r for r in rows if not r.learner_id]
    if not rows:
        return None
    number: dict[str, int] = {}
    for r in reversed(rows):
        number[r.exercise] = number.get(r.exercise, 0) + 1
    attempts, previous = [], _previous(rows)
    seen: dict[str, int] = dict(number)
    for r in rows[:MAX_ATTEMPTS]:
        n = seen[r.exercise]
        seen[r.exercise] -= 1
        before = previous.get(r.id)
        diff, cut = _diff(before.code if before else None, r.code)
        attempts.append(Attempt(r, n, diff, cut))
    return LearnerPage(key, rows[0].learner, learner_id, attempts, len(rows))


def _previous(rows: list[Submission]) -> dict[int, Submission]:
    """Each row's previous attempt at the same exercise (rows newest first)."""
    last: dict[str, Submission] = {}
    out = {}
    for r in reversed(rows):
        if r.exercise in last:
            out[r.id] = last[r.exercise]
        last[r.exercise] = r
    return out


def _diff(before: str | None, after: str) -> tuple[list[str], bool]:
    if before is None:
        return [], len(after) > MAX_CODE_CHARS
    old = before[:MAX_CODE_CHARS].splitlines()
    new = after[:MAX_CODE_CHARS].splitlines()
    cut = (len(before) > MAX_CODE_CHARS or len(after) > MAX_CODE_CHARS
           or max(len(old), len(new)) > MAX_CODE_LINES)
    lines = list(difflib.unified_diff(old[:MAX_CODE_LINES], new[:MAX_CODE_LINES],
                                      "before", "after", n=1, lineterm=""))[2:]
    if len(lines) > MAX_DIFF:
        return lines[:MAX_DIFF], True
    return lines, cut
