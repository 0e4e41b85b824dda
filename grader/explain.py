"""Stage 4 of grading: say what went wrong in a failed case, beyond "wrong values".

In order: name the known mistake that best explains the whole submission (its run fails the
same cases with the same outputs), then let the exercise's diagnoser name one from properties
of the outputs, else add the case's stability hint where it applies; finally say each
distinct message once.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from grader.judge import explains, judge_case
from grader.model import Mistake, Record, TestCase
from grader.report import Report, TestResult
from grader.report import bilingual as _m


class Failure(NamedTuple):
    """A failed case: its index, its result (to be explained) and the learner's records."""

    index: int
    result: TestResult
    records: list[Record]


def name_mistakes(cases: list[TestCase], failed: list[Failure], report: Report,
                   expected: dict[int, list[Record]], mistakes: list[Mistake]) -> None:
    """Name each failed case after the known mistake that best explains the whole submission.

    A mistake explains a failed case when it fails that case too, with the same outputs. Booleans
    and errors are coarse, so several mistakes can match one case: prefer the mistake that matches
    the most failed cases and is contradicted least (it fails a case the learner passed).
    """
    if not failed or not mistakes:
        for index, result, records in failed:
            add_hint(cases[index], result, records)
        return
    passed = [i for i, t in enumerate(report.tests) if t.passed]
    matches: dict[str, set[int]] = {}
    rank: dict[str, float] = {}
    for order, m in enumerate(mistakes):
        oc = m.records
        matches[m.name] = {index for index, _r, records in failed
                           if index in oc and not judge_case(cases[index], oc[index], expected.get(index))[0]
                           and explains(cases[index], records, oc[index])}
        contradicted = sum(1 for i in passed
                           if i in oc and not judge_case(cases[i], oc[i], expected.get(i))[0])
        rank[m.name] = len(matches[m.name]) - 2 * contradicted - order * 1e-3
    messages = {m.name: m.message for m in mistakes}
    for index, result, records in failed:
        if result.mistake:  # a probe already named what it found
            continue
        candidates = [n for n in matches if index in matches[n]]
        if candidates:
            best = max(candidates, key=lambda n: rank[n])
            result.mistake, result.message = best, messages[best]
        else:
            add_hint(cases[index], result, records)


def diagnose(diagnoser: Callable | None, cases: list[TestCase], failed: list[Failure],
             mistakes: list[Mistake]) -> None:
    """Name still-unnamed failed cases from properties of the learner's outputs."""
    if not failed or diagnoser is None:
        return
    messages = {m.name: m.message for m in mistakes}
    for index, result, records in failed:
        if result.mistake:
            continue
        try:  # hidden/<id>/diagnose.py reads the case as authored and records as sent
            name = diagnoser(cases[index].authored, [r.to_wire() for r in records])
        except Exception:  # noqa: BLE001 - a diagnosis is optional; never fail the report on it
            name = None
        if name in messages:
            result.mistake, result.message = name, messages[name]


def _non_finite(value) -> bool:
    """Whether a returned value holds NaN or ±inf anywhere (arrays, numbers, nested tuples)."""
    if isinstance(value, np.ndarray):
        return value.dtype.kind in "fc" and not np.isfinite(value).all()
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, (list, tuple)):
        return any(_non_finite(v) for v in value)
    if isinstance(value, dict):
        return any(_non_finite(v) for v in value.values())
    return False


def add_hint(case: TestCase, result: TestResult, records: list[Record]) -> None:
    """A case's fixed hint is about numerical stability (every hint in hidden/ is): shown only
    when the code returned NaN or inf there, the symptom it explains; never on a crash (then
    only the crash message is true) or on finite wrong values, whose cause it would misname."""
    raised = any(r.error is not None for r in records)
    if case.hint and not raised and any(_non_finite(r.value) for r in records):
        result.message = {k: f"{v}\n{case.hint.get(k, '')}".strip() for k, v in result.message.items()}


def say_once(report: Report) -> None:
    """One message per distinct mistake: a repeat points back to the first test that said it."""
    first: dict[str, TestResult] = {}
    for t in report.tests:
        if t.passed:
            continue
        key = t.mistake or t.message.get("en", "")
        if key in first:
            en, zh = first[key].name, first[key].name_zh or first[key].name
            t.message = (_m(f"Same mistake as in “{en}”.", f"与“{zh}”中的错误相同。") if t.mistake
                         else _m(f"Same problem as in “{en}”.", f"与“{zh}”中的问题相同。"))
        else:
            first[key] = t
