"""One learner's page for the instructor, as data: every attempt with its code, score, named
mistakes and the feedback the learner was shown, each beside the learner's previous attempt
at the same exercise (a diff). No gradio; the page checks who may see it before every draw.

Bounded by design: the newest ``MAX_ATTEMPTS`` attempts, and a diff of at most ``MAX_DIFF``
lines, whatever a learner sent (a flood of 5 MB submissions must not make the teacher's page
do unbounded work)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from gradebook import Gradebook, Submission

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
    same: bool = False  # the same code as the attempt before (graded again)


@dataclass(frozen=True)
class LearnerPage:
    key: str
    label: str
    learner_id: str | None
    attempts: list[Attempt]  # newest first
    total: int  # attempts in the gradebook
    comments: list = field(default_factory=list)  # the teacher's to them, newest first
    scores: list = field(default_factory=list)  # the teacher's scores (gradebook.overrides)
    regraded: dict = field(default_factory=dict)  # submission id -> (old score, old max)


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
    """The page of the learner behind ``key`` (a class-view key), or None when unknown.

    Reads the newest MAX_ATTEMPTS attempts with their code, then for each exercise shown the
    one attempt before its oldest shown (for the diff), and the counts from the light score
    rows: never every attempt's code (third red team: 1,500 attempts of 100 kB cost the
    teacher's click 0.85 s and 152 MB)."""
    learner_id, label = parse_key(key)
    if learner_id is None and label is None:
        return None
    if learner_id is None:  # by label: only the rows stored before ids (as the grid counts)
        rows = [r for r in book.history(label, limit=10 * MAX_ATTEMPTS) if not r.learner_id]
        counts = _counts(rows)
    else:
        rows = book.history(learner_id=learner_id, limit=MAX_ATTEMPTS)  # newest first
        counts = {b.exercise: b.attempts for b in book.best_scores(learner_id=learner_id)}
    if not rows:
        return None
    shown = rows[:MAX_ATTEMPTS]
    before = _previous(shown)
    for ex in {r.exercise for r in shown}:  # the attempt before the oldest shown, if any
        mine = [r for r in shown if r.exercise == ex]
        if len(mine) < counts.get(ex, len(mine)):
            older = book.history(label if learner_id is None else None, ex, len(mine) + 1,
                                 learner_id=learner_id)
            if len(older) > len(mine):
                before[mine[-1].id] = older[len(mine)]
    number = dict(counts)
    attempts = []
    for r in shown:
        previous = before[r.id].code if r.id in before else None
        diff, cut = _diff(previous, r.code)
        attempts.append(Attempt(r, number[r.exercise], diff, cut, same=previous == r.code))
        number[r.exercise] -= 1
    return LearnerPage(key, rows[0].learner, learner_id, attempts, sum(counts.values()),
                       book.comments(learner_id, limit=20),
                       sorted(book.score_overrides(learner_id).values(), key=lambda o: o.exercise),
                       {r.submission_id: (r.old_score, r.old_max)
                        for r in reversed(book.regrades(learner_id))})  # the newest regrade wins


def _counts(rows: list[Submission]) -> dict[str, int]:
    out: dict[str, int] = {}
    for r in rows:
        out[r.exercise] = out.get(r.exercise, 0) + 1
    return out


def _previous(rows: list[Submission]) -> dict[int, Submission]:
    """Each row's previous attempt at the same exercise among ``rows`` (newest first)."""
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
