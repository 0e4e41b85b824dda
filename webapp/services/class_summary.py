"""The instructor's class view as data: who tried which exercise, how far they got, which named
mistakes are common and who is stuck, from one gradebook query (no gradio).

``summarise`` is pure (rows in, a :class:`ClassSummary` out), so tests feed it rows directly;
``load`` is the one query per refresh (:meth:`Gradebook.class_rows`).
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone

from gradebook import Gradebook
from gradebook.model import Attempt

STUCK_ATTEMPTS = 3  # this many attempts at the best score so far, none better: stuck
SILENT_AFTER = timedelta(minutes=10)  # failing, and nothing sent for this long: silent
IN_THE_ROOM = timedelta(hours=3)  # a lesson's length: silent longer than this, they have left
# Why a learner needs help, most urgent first: the same named mistake in each of the last
# attempts (and no better score), attempts without a better score, failing and silent.
SAME_MISTAKE, NO_GAIN, SILENT = "same_mistake", "no_gain", "silent"
REASONS = (SAME_MISTAKE, NO_GAIN, SILENT)
NONE, TRYING, FULL = "none", "trying", "full"  # a cell's state (the grid's CSS classes)
_CLOCK = re.compile(r"^\s*(?:(\d{4})-(\d{1,2})-(\d{1,2})[ T])?(\d{1,2})[:：.](\d{2})\s*$")


@dataclass(frozen=True)
class Learner:
    """One row of the grid: the learner's key (id, else label), newest label and id."""

    key: str
    label: str
    learner_id: str | None


@dataclass(frozen=True)
class Cell:
    """One learner on one exercise: best result, attempts, and what went wrong last."""

    best: float  # points of the best attempt
    max_score: float
    fraction: float  # best / max, compared across changes of max_score
    attempts: int
    state: str  # TRYING or FULL (a cell never tried is absent)
    attempts_to_full: int | None  # the attempt number that first reached full marks
    last_mistake: str | None  # the first mistake of the newest attempt that named one
    last_stage: str  # where the newest attempt first failed ("" when it passed)
    last_stage_zh: str
    last_status: str  # the newest attempt's status (graded, syntax_error, timeout, ...)
    last_at: str
    graded: float | None = None  # the graded best, where the teacher set ``best`` instead


@dataclass(frozen=True)
class Total:
    """Per exercise: how many learners tried it, how many reached full marks, and the median
    number of attempts those needed."""

    exercise: str
    tried: int
    full: int
    median_to_full: float | None


@dataclass(frozen=True)
class MistakeCount:
    """One named mistake of one exercise: how many learners made it, in how many attempts."""

    exercise: str
    mistake: str
    learners: tuple[Learner, ...]
    attempts: int


@dataclass(frozen=True)
class Stuck:
    """A learner who needs help, on one exercise: why (one of REASONS), since when (the
    attempt that began it: the first at today's best score, the first of the repeated mistake,
    or the last one before the silence), the attempts since then, and the cell. The entry
    stays until the learner gains a better score or submits again: time alone never clears
    it (issue 25: a 15-minute window let 5 stuck learners drop off the list unhelped)."""

    learner: Learner
    exercise: str
    attempts: int
    cell: Cell
    reason: str = NO_GAIN
    since: str = ""
    mistake: str | None = None  # the repeated mistake (SAME_MISTAKE)


@dataclass
class ClassSummary:
    """Everything the class view draws, for rows since ``since`` (None: all)."""

    exercises: list[str]
    learners: list[Learner]
    cells: dict[tuple[str, str], Cell]
    totals: list[Total]
    mistakes: list[MistakeCount]
    stuck: list[Stuck]
    since: str | None = None
    rows: int = 0
    fractions: dict[str, list[float]] = field(default_factory=dict)  # best per learner, per exercise
    now: datetime | None = None  # the time "since" and "silent" were read against
    listed: int = 0  # names on the teacher's class list (gradebook.roster)
    not_started: list[Learner] = field(default_factory=list)  # listed, no attempt in the view

    def cell(self, learner: Learner, exercise: str) -> Cell | None:
        return self.cells.get((learner.key, exercise))


def _at(iso: str) -> datetime:
    return datetime.fromisoformat(iso.replace("Z", "+00:00"))


def _cell(group: list[Attempt]) -> Cell:
    """One learner's attempts on one exercise, oldest first, as a grid cell."""
    best = max(group, key=lambda r: (r.fraction, -r.id))  # ties: the earliest best
    full_at = next((i + 1 for i, r in enumerate(group) if r.max_score > 0
                    and r.score >= r.max_score), None)
    named = next((r for r in reversed(group) if r.mistakes), None)
    last = group[-1]
    return Cell(best.score, best.max_score, best.fraction, len(group),
                FULL if full_at is not None else TRYING, full_at,
                named.mistakes[0] if named else None, last.stage, last.stage_zh, last.status,
                last.submitted_at)


def _stuck(group: list[Attempt]) -> tuple[str, int, str, str | None] | None:
    """(reason, attempts, since, mistake) when ``group`` (one learner, one exercise, oldest
    first) is stuck: STUCK_ATTEMPTS or more attempts from the first at the best score so far,
    none better (SAME_MISTAKE when the last of them all name the same first mistake); else
    None. Full marks are never stuck."""
    best = max(r.fraction for r in group)
    if best >= 1.0:
        return None
    first = next(i for i, r in enumerate(group) if r.fraction >= best - 1e-9)
    since = group[first:]
    if len(since) < STUCK_ATTEMPTS:
        return None
    mistake = since[-1].mistakes[0] if since[-1].mistakes else None
    run = 0
    for r in reversed(since):
        if not (r.mistakes and r.mistakes[0] == mistake):
            break
        run += 1
    if mistake is not None and run >= STUCK_ATTEMPTS:
        return SAME_MISTAKE, len(since), since[-run].submitted_at, mistake
    return NO_GAIN, len(since), since[0].submitted_at, None


def needs_help(groups: dict[tuple[str, str], list[Attempt]], learners: dict[str, Learner],
               cells: dict[tuple[str, str], Cell], now: datetime) -> list[Stuck]:
    """Whom to walk to first: one entry per learner, the most urgent of their exercises
    (REASONS' order), then the learners by urgency, longest waiting, most attempts."""
    newest: dict[str, Attempt] = {}
    found: dict[str, Stuck] = {}
    for (who, ex), group in groups.items():
        if who not in newest or group[-1].id > newest[who].id:
            newest[who] = group[-1]
        if cells[(who, ex)].graded is not None:
            continue  # the teacher set this score: they have seen it
        hit = _stuck(group)
        if hit is not None:
            reason, attempts, since, mistake = hit
            entry = Stuck(learners[who], ex, attempts, cells[(who, ex)], reason, since, mistake)
            if who not in found or _urgency(entry) < _urgency(found[who]):
                found[who] = entry
    for who, last in newest.items():
        cell = cells[(who, last.exercise)]
        quiet = now - _at(last.submitted_at)
        if who not in found and cell.state != FULL and cell.graded is None \
                and SILENT_AFTER <= quiet <= IN_THE_ROOM:
            found[who] = Stuck(learners[who], last.exercise, cell.attempts, cell, SILENT,
                               last.submitted_at)
    return sorted(found.values(), key=_urgency)


def _urgency(s: Stuck) -> tuple:
    """Most urgent reason first, then who has waited longest (a flood's minted keys are
    recent: ordering by most attempts put 300 of them above a classmate stuck for longer,
    third red team), then most attempts."""
    return (REASONS.index(s.reason), s.since, -s.attempts, s.learner.label.casefold(),
            s.learner.key)


def summarise(rows: Iterable[Attempt], exercises: list[str], now: datetime | None = None,
              since: str | None = None,
              roster: Iterable[tuple[str, str]] = (),
              overrides: Mapping[tuple[str, str], tuple[float, float]] | None = None,
              ) -> ClassSummary:
    """The class view of ``rows`` (oldest first). ``exercises`` gives the columns' order;
    exercises found only in the rows follow it. ``now`` decides who is stuck. ``roster``:
    (learner id, name) of everyone on the class list; those with no row in ``rows`` are rows
    of the grid too, with no cells (issue 25: a learner who never submitted was invisible).
    ``overrides``: the teacher's (score, out of) by (learner key, exercise), in place of the
    graded best of a cell the rows have; such a cell never asks for help (the teacher has
    decided)."""
    now = now or datetime.now(timezone.utc)
    groups: dict[tuple[str, str], list[Attempt]] = {}
    learners: dict[str, Learner] = {}
    seen: list[str] = list(exercises)
    count = 0
    for r in rows:
        count += 1
        groups.setdefault((r.who, r.exercise), []).append(r)
        learners[r.who] = Learner(r.who, r.learner, r.learner_id)  # the newest label wins
        if r.exercise not in seen:
            seen.append(r.exercise)
    cells = {key: _cell(group) for key, group in groups.items()}
    for key, (score, top) in (overrides or {}).items():
        if key in cells and top > 0:
            cells[key] = replace(cells[key], best=score, max_score=top, fraction=score / top,
                                 state=FULL if score >= top else TRYING, graded=cells[key].best)
    listed = dict(roster)
    not_started = [Learner(f"id:{i}", name, i) for i, name in listed.items()
                   if f"id:{i}" not in learners]
    order = sorted([*learners.values(), *not_started], key=lambda x: (x.label.casefold(), x.key))
    totals, fractions = [], {}
    for ex in seen:
        here = [cells[(x.key, ex)] for x in order if (x.key, ex) in cells]
        done = [c.attempts_to_full for c in here if c.attempts_to_full is not None]
        totals.append(Total(ex, len(here), sum(c.state == FULL for c in here),
                            float(statistics.median(done)) if done else None))
        fractions[ex] = [c.fraction for c in here]
    made: dict[tuple[str, str], tuple[dict[str, Learner], list[int]]] = {}
    for (who, ex), group in groups.items():
        for r in group:
            for m in r.mistakes:
                people, attempts = made.setdefault((ex, m), ({}, [0]))
                people[who] = learners[who]
                attempts[0] += 1
    position = {ex: i for i, ex in enumerate(seen)}
    mistakes = [MistakeCount(ex, m, tuple(sorted(people.values(), key=lambda x: x.label.casefold())),
                             attempts[0])
                for (ex, m), (people, attempts) in made.items()]
    mistakes.sort(key=lambda c: (-len(c.learners), -c.attempts, position[c.exercise], c.mistake))
    stuck = needs_help(groups, learners, cells, now)
    return ClassSummary(seen, order, cells, totals, mistakes, stuck, since, count, fractions, now,
                        len(listed), sorted(not_started, key=lambda x: x.label.casefold()))


def load(book: Gradebook, exercises: list[str], since: str | None = None,
         now: datetime | None = None, only: list[str] | None = None) -> ClassSummary:
    """The class view from the gradebook: two queries (rows since ``since``, the class list),
    then summarise. ``only``: the lesson's exercises; the rows and columns of the others are
    left out (None: every exercise)."""
    roster = [(m.learner_id, m.name) for m in book.members()]
    overrides = {(f"id:{lid}", ex): (o.score, o.max_score)
                 for (lid, ex), o in book.score_overrides().items()}
    rows = book.class_rows(since)
    if only is not None:
        keep = set(only)
        rows = [r for r in rows if r.exercise in keep]
        exercises = [ex for ex in exercises if ex in keep]
    return summarise(rows, exercises, now, since, roster, overrides)


def lesson_start(text: str | None, tz_offset_min: float | None = None,
                 now: datetime | None = None) -> str | None:
    """A start time typed by the teacher as UTC ISO text, or None for an empty box.

    "HH:MM" is today in the teacher's time zone (``tz_offset_min`` as JavaScript's
    ``getTimezoneOffset()``: minutes to add to local time to get UTC; None is UTC), or
    yesterday when that is still ahead; "YYYY-MM-DD HH:MM" is that day. Raises ValueError.
    """
    if text is None or not str(text).strip():
        return None
    found = _CLOCK.match(str(text))
    if not found:
        raise ValueError(f"not a time of day (HH:MM): {text!r}")
    year, month, day, hour, minute = (int(x) if x else None for x in found.groups())
    if hour > 23 or minute > 59:
        raise ValueError(f"not a time of day (HH:MM): {text!r}")
    offset = timedelta(minutes=float(tz_offset_min or 0))
    now = now or datetime.now(timezone.utc)
    local_now = (now - offset).replace(tzinfo=None)
    if year is None:
        local = local_now.replace(hour=hour, minute=minute, second=0, microsecond=0)
        if local > local_now:
            local -= timedelta(days=1)
    else:
        local = datetime(year, month, day, hour, minute)
    return (local + offset).replace(tzinfo=timezone.utc).isoformat(timespec="microseconds")


def local_clock(iso: str | None, tz_offset_min: float | None = None) -> str:
    """A stored UTC time as the teacher's "HH:MM" (the inverse of :func:`lesson_start`)."""
    if not iso:
        return ""
    return (_at(iso) - timedelta(minutes=float(tz_offset_min or 0))).strftime("%H:%M")
