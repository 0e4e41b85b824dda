"""What a gradebook row is: the Submission record, its checks, and per-exercise best scores."""

from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import lru_cache
from typing import Any

from gradebook.settings import GradebookSettings
from grader.paths import REPO_ROOT, GraderSettings

PROJECT_VERSION = "0.1.0"
MAX_STORED_CODE_CHARS = 1_000_000  # a hard backstop; input_checks.py refuses far smaller code first


class GradebookError(RuntimeError):
    """The gradebook itself failed (database unreachable, schema problem...), not the input."""


def utc_now_iso() -> str:
    """The current time as a UTC ISO-8601 string with microseconds, e.g. ``2026-08-01T12:00:00.000000+00:00``."""
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


def normalise_timestamp(value: str | datetime) -> str:
    """Any aware datetime (or ISO text) as the gradebook's one UTC text form."""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise ValueError(f"submitted_at must be an ISO-8601 time, got {value!r}") from None
    if not isinstance(value, datetime):
        raise TypeError(f"submitted_at must be text or a datetime, not {type(value).__name__}")
    if value.tzinfo is None:
        raise ValueError("submitted_at must carry a time zone (UTC), so rows from replicas compare")
    return value.astimezone(timezone.utc).isoformat(timespec="microseconds")


@lru_cache(maxsize=1)
def grader_version() -> str:
    """``$LAB_GRADER_VERSION``, else the project version plus a hash of the grader and hidden tests.

    The hash changes whenever grading could change, so an instructor can tell scores from
    different test sets apart.
    """
    pinned = GradebookSettings.read("grader_version")
    if pinned:
        return pinned
    digest = hashlib.sha256()
    hidden = GraderSettings.read("hidden_dir")
    engine = sorted(p for p in (REPO_ROOT / "grader").rglob("*.py") if "__pycache__" not in p.parts)
    files = engine + sorted(hidden.glob("**/*.py"))
    for path in files:
        try:
            digest.update(path.read_bytes())
        except OSError:
            continue
    return f"{PROJECT_VERSION}+{digest.hexdigest()[:10]}"


def surrogate_safe(text: str) -> str:
    """``text`` as valid UTF-8: a lone surrogate (``"\\ud800"``, which JSON and Python allow
    but UTF-8, SQLite and PostgreSQL do not) becomes its backslash escape, the same seven
    characters one would type for it in a Python string. Other text is returned as is."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


def surrogate_safe_data(value: Any) -> Any:
    """``value`` (JSON-like: dicts, lists, text, numbers) with every text surrogate-safe."""
    if isinstance(value, str):
        return surrogate_safe(value)
    if isinstance(value, dict):
        return {surrogate_safe_data(k): surrogate_safe_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [surrogate_safe_data(v) for v in value]
    return value


def _tests_json(tests: Any) -> str:
    try:
        return json.dumps(tests, ensure_ascii=False, allow_nan=False, sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"tests must be plain JSON data (lists, dicts, numbers, text): {exc}") from None


@dataclass
class Submission:
    """One graded submission. ``id`` is None until the gradebook has stored it."""

    learner: str
    exercise: str
    code: str
    score: float
    max_score: float
    tests: list[dict[str, Any]] = field(default_factory=list)  # one dict per test case
    status: str = "graded"  # the grader's report status: graded, syntax_error, timeout, ...
    submitted_at: str = field(default_factory=utc_now_iso)
    grader_version: str = field(default_factory=grader_version)
    # Opaque owner id ("g:..." guest, "hf:..." signed in, "api:..." API label); None on rows
    # stored before ids existed. ``learner`` is only the label shown next to it.
    learner_id: str | None = None
    id: int | None = None
    # What the grader said went wrong, kept for the class view and the CSV. None: derived from
    # ``tests`` (each test's ``mistake`` and, for the stage, the first failed test's name).
    mistakes: list[str] | None = None  # mistake ids, first failing test's first; stored "a,b"
    stage: str | None = None  # where it first failed ("" when nothing failed), English
    stage_zh: str | None = None  # the same stage as a Chinese page names it

    def __post_init__(self) -> None:
        # Every graded submission must be storable whatever its text: the learner's code and
        # the child's messages may hold lone surrogates, which no database encoding accepts.
        for name in ("learner", "exercise", "code", "status", "grader_version", "learner_id"):
            value = getattr(self, name)
            if isinstance(value, str):
                setattr(self, name, surrogate_safe(value))
        if isinstance(self.tests, list):
            self.tests = surrogate_safe_data(self.tests)
        if isinstance(self.tests, list) and (self.mistakes is None or self.stage is None):
            mistakes, stage, stage_zh = diagnosis_of(self.tests)
            if self.mistakes is None:
                self.mistakes = mistakes
            if self.stage is None:
                self.stage, self.stage_zh = stage, stage_zh
        self.mistakes = _checked_mistakes(self.mistakes)
        for name in ("stage", "stage_zh"):
            value = getattr(self, name)
            value = surrogate_safe(value) if isinstance(value, str) else ("" if value is None else value)
            if not isinstance(value, str) or "\x00" in value:
                raise ValueError(f"{name} must be text without NUL, got {value!r}")
            setattr(self, name, value[:MAX_STAGE_CHARS])
        # Check everything here, before any SQL, so bad input is never stored half-way.
        for name in ("learner", "exercise", "status", "grader_version"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value.strip():
                raise ValueError(f"{name} must be non-empty text, got {value!r}")
            if "\x00" in value:
                raise ValueError(f"{name} must not contain a NUL character")
        if self.learner_id is not None and (
                not isinstance(self.learner_id, str) or not self.learner_id.strip()
                or "\x00" in self.learner_id or len(self.learner_id) > 200):
            raise ValueError(f"learner_id must be None or short non-empty text, got {self.learner_id!r}")
        if not isinstance(self.code, str):
            raise TypeError(f"code must be text, not {type(self.code).__name__}")
        if "\x00" in self.code:
            raise ValueError("code must not contain a NUL character")
        if len(self.code) > MAX_STORED_CODE_CHARS:
            raise ValueError(f"code is longer than {MAX_STORED_CODE_CHARS} characters")
        for name in ("score", "max_score"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"{name} must be a finite number, got {value!r}")
            setattr(self, name, float(value))
        if self.max_score < 0:
            raise ValueError(f"max_score must be >= 0, got {self.max_score}")
        if not isinstance(self.tests, list):
            raise TypeError(f"tests must be a list of per-test results, not {type(self.tests).__name__}")
        _tests_json(self.tests)
        self.submitted_at = normalise_timestamp(self.submitted_at)

    def tests_json(self) -> str:
        """The per-test results as compact JSON text."""
        return _tests_json(self.tests)

    @classmethod
    def from_report(cls, report: Any, code: str, learner: str | None = None,
                    **overrides: Any) -> Submission:
        """A Submission from a ``grader.report.Report`` (duck-typed: exercise_id, tests, score...)."""
        tests = []
        for t in getattr(report, "tests", []):
            row = t.to_dict() if hasattr(t, "to_dict") else dict(t)
            tests.append(row)
        who = learner if learner is not None else getattr(report, "learner", None)
        values = dict(learner=who or "anonymous", exercise=report.exercise_id, code=code,
                      score=report.score, max_score=report.max_score, tests=tests,
                      status=getattr(report, "status", "graded") or "graded")
        values.update(overrides)
        return cls(**values)

    def mistakes_text(self) -> str:
        """The mistake ids as stored: comma-separated, in the order named."""
        return ",".join(self.mistakes or [])

    def passed_count(self) -> int:
        """How many test cases passed (per the stored per-test results)."""
        return sum(1 for t in self.tests if isinstance(t, dict) and t.get("passed"))


MAX_STAGE_CHARS = 300
_MISTAKE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")
# Rows stored before tests carried ``differs_at``: the stage observation's English words.
_OBSERVED = (re.compile(r"^The first output that differs is `([^`]{1,80})`"),
             re.compile(r"^(?:`[^`]*`(?:, )?)+ right, `([^`]{1,80})` not:"))


def _checked_mistakes(value: Any) -> list[str]:
    """Mistake ids as a list (stored text "a,b" is split); an id is a short slug."""
    if isinstance(value, str):
        value = [v for v in value.split(",") if v]
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"mistakes must be a list of mistake ids, not {type(value).__name__}")
    out = []
    for item in value:
        if not isinstance(item, str) or not _MISTAKE_ID.fullmatch(item):
            raise ValueError(f"a mistake id is a short slug such as 'no-scale', got {item!r}")
        if item not in out:
            out.append(item)
    return out


def diagnosis_of(tests: list[Any]) -> tuple[list[str], str, str]:
    """(mistake ids, stage, stage in Chinese) from stored per-test results.

    The mistakes are every test's named ``mistake`` in test order, once each (the first
    failing test's comes first). The stage is the first failed test's name, followed by the
    output it first differs at when the stage observation says so ("" when nothing failed).
    """
    mistakes: list[str] = []
    for t in tests:
        m = t.get("mistake") if isinstance(t, dict) else None
        if isinstance(m, str) and _MISTAKE_ID.fullmatch(m) and m not in mistakes:
            mistakes.append(m)
    first = next((t for t in tests if isinstance(t, dict) and not t.get("passed")), None)
    if first is None:
        return mistakes, "", ""
    name = str(first.get("name") or "")
    name_zh = str(first.get("name_zh") or name)
    output = _differs_at(first)
    if output and output not in name:
        name, name_zh = f"{name} · `{output}`", f"{name_zh} · `{output}`"
    return mistakes, name[:MAX_STAGE_CHARS], name_zh[:MAX_STAGE_CHARS]


def _differs_at(test: dict) -> str | None:
    """The output a failed test first differs at: its ``differs_at`` field (grader.report
    .TestResult); a row stored before that field existed is read from its English message."""
    if "differs_at" in test:
        label = test.get("differs_at")
        return label[:80] if isinstance(label, str) and label and "`" not in label else None
    message = test.get("message")
    text = message.get("en", "") if isinstance(message, dict) else ""
    for pattern in _OBSERVED:  # legacy rows only
        found = pattern.match(text) if isinstance(text, str) else None
        if found:
            return found[1]
    return None


@dataclass(frozen=True)
class Attempt:
    """One submission as the class view reads it: no code, no per-test results."""

    id: int
    learner: str
    learner_id: str | None
    exercise: str
    score: float
    max_score: float
    status: str
    submitted_at: str
    mistakes: tuple[str, ...]
    stage: str
    stage_zh: str

    @property
    def who(self) -> str:
        """The learner's key: their id when the row has one, else their label (as best_of)."""
        return f"id:{self.learner_id}" if self.learner_id else f"label:{self.learner}"

    @property
    def fraction(self) -> float:
        return self.score / self.max_score if self.max_score > 0 else 0.0


@dataclass(frozen=True)
class BestScore:
    """A learner's best result on one exercise (the first submission that reached it)."""

    learner: str
    exercise: str
    score: float
    max_score: float
    attempts: int
    best_id: int
    best_at: str
    last_at: str
    learner_id: str | None = None  # None for rows stored before learner ids
    graded: float | None = None  # the graded best, where the teacher set ``score`` instead
    note: str = ""  # the teacher's note with that score


def best_of(rows: list[Submission]) -> list[BestScore]:
    """Best score per (learner, exercise); ties go to the earliest submission. Sorted by label.

    A learner is their id when the rows have one (two guests called alice stay apart), else
    their label (rows stored before ids). ``learner`` shows the newest label of that learner.
    """
    groups: dict[tuple[str, str], list[Submission]] = {}
    for row in rows:
        who = f"id:{row.learner_id}" if row.learner_id else f"label:{row.learner}"
        groups.setdefault((who, row.exercise), []).append(row)
    out = []
    for (_, exercise), group in groups.items():
        group.sort(key=lambda r: r.id or 0)
        best = max(group, key=lambda r: (_fraction(r), -(r.id or 0)))
        last = group[-1]
        out.append(BestScore(last.learner, exercise, best.score, best.max_score, len(group),
                             best.id or 0, best.submitted_at, last.submitted_at, last.learner_id))
    out.sort(key=lambda b: (b.learner, b.learner_id or "", b.exercise))
    return out


def _fraction(row: Submission) -> float:
    # Compare fractions, not raw points: max_score can change when the hidden tests do.
    return row.score / row.max_score if row.max_score > 0 else 0.0
