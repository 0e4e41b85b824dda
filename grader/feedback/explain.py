"""Stage 4 of grading: say what went wrong in a failed case, beyond "wrong values".

In order: name a known mistake where the evidence (mistake files' runs and the exercise's
diagnoser) singles out one hypothesis for every failure of a part, else add the case's
stability hint where it applies; finally say each distinct message once.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from grader.feedback.judge import explains, judge_case
from grader.feedback.premises import UNKNOWN, Premises
from grader.report import Report, TestResult
from grader.typed import Mistake, Record, TestCase
from grader.words import say


class Failure(NamedTuple):
    """A failed case: its index, its result (to be explained) and the learner's records."""

    index: int
    result: TestResult
    records: list[Record]


def part_of(case: TestCase) -> frozenset[str]:
    """The learner's names a case runs (functions, classes, module-level names): cases that
    run the same names test one part of the submission, and a hypothesis about that part
    must explain all of that part's failures."""
    return frozenset(str(s.name) for s in case.steps
                     if s.op in ("call", "get", "new") and isinstance(s.name, str))


def name_mistakes(cases: list[TestCase], failed: list[Failure], report: Report,
                  expected: dict[int, list[Record]], mistakes: list[Mistake],
                  diagnoser: Callable | None = None, premises: Premises | None = None) -> None:
    """Name a known mistake only where the evidence singles it out (never a best guess).

    For every failed case the hypotheses that explain it are the mistake files that fail it
    with the same outputs, and the name the exercise's diagnoser finds from its properties.
    Within one part of the submission (``part_of``) a hypothesis is named only when it
    explains every failed case of that part and fails no case the learner passed, and no
    other hypothesis does as well; a mistake a probe or contract check already proved in
    this submission breaks a tie. Otherwise nothing is named: stage observations
    (grader/feedback/observe.py) then say what differs, which is never wrong.
    """
    if not failed:
        return
    passed = [i for i, t in enumerate(report.tests) if t.passed]
    messages = {m.name: m.message for m in mistakes}
    contradicted = {m.name for m in mistakes
                    if any(i in m.records and not judge_case(cases[i], m.records[i], expected.get(i))[0]
                           for i in passed)}
    proven = {r.mistake for _i, r, _rec in failed if r.mistake}
    open_: dict[frozenset[str], list[Failure]] = {}
    for f in failed:
        if not f.result.mistake:  # a check already named what it found
            open_.setdefault(part_of(cases[f.index]), []).append(f)
    for part in open_.values():
        found = {index: _hypotheses(index, cases[index], records, expected.get(index), mistakes,
                                    contradicted, _diagnosed(diagnoser, cases[index], records))
                 for index, _result, records in part}
        # Values carry the evidence; a probe or a contract check in the same part says its own
        # thing (its message stays), and so does a crash no mistake file reproduces exactly:
        # neither is held against a hypothesis about values.
        weighed = [found[i] for i, _r, records in part if _is_value_case(cases[i], records)
                   or (found[i] and not _is_probe(cases[i]))]
        fits = set.intersection(*weighed) if weighed else set()
        if len(fits) > 1 and len(fits & proven) == 1:
            fits &= proven
        name = next(iter(fits)) if len(fits) == 1 else None
        for index, result, records in part:
            if name is not None and name in found[index]:
                result.mistake, result.message = name, messages[name]
            else:
                add_hint(cases[index], result, records, premises)


def _hypotheses(index: int, case: TestCase, records: list[Record], expected: list[Record] | None,
                mistakes: list[Mistake], contradicted: set[str], diagnosed: set[str]) -> set[str]:
    """The hypotheses that explain one failed case: mistake files that fail it with the same
    outputs (unless they fail a case the learner passed), and the diagnoser's finding (from
    properties, so a mistake file's other cases do not bear on it)."""
    here = {m.name for m in mistakes if m.name not in contradicted and index in m.records
            and not judge_case(case, m.records[index], expected)[0]
            and explains(case, records, m.records[index])}
    # One finding stands on its properties; several the diagnoser cannot tell apart on this
    # case are narrowed like mistake files, by the cases the learner passed.
    here |= (diagnosed if len(diagnosed) == 1 else diagnosed - contradicted) & {m.name for m in mistakes}
    return here


def _is_value_case(case: TestCase, records: list[Record]) -> bool:
    """A case whose checked outputs are values the learner's code returned (no crash, no probe
    or contract description): the evidence every hypothesis about values must explain."""
    return not any(r.error is not None for r in records) and not _is_probe(case)


def _is_probe(case: TestCase) -> bool:
    """A case checked through a probe or a description of the learner's module."""
    return any(s.op in ("fixture", "describe") and s.checks for s in case.steps)


def _diagnosed(diagnoser: Callable | None, case: TestCase, records: list[Record]) -> set[str]:
    """The names the exercise's diagnoser finds consistent with one case's outputs: one name,
    or several it cannot tell apart on this case alone (the other cases may)."""
    if diagnoser is None:
        return set()
    try:  # hidden/<id>/diagnose.py reads the typed case and records (grader/typed.py)
        found = diagnoser(case, records)
    except Exception:  # noqa: BLE001 - a diagnosis is optional; never fail the report on it
        return set()
    if isinstance(found, str):
        return {found}
    return {n for n in found if isinstance(n, str)} if isinstance(found, (set, frozenset)) else set()


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


def add_hint(case: TestCase, result: TestResult, records: list[Record],
             premises: Premises | None = None) -> None:
    """A case's fixed hint is about numerical stability (every hint in hidden/ is): shown only
    when the code returned NaN or inf there, the symptom it explains; never on a crash (then
    only the crash message is true) or on finite wrong values, whose cause it would misname;
    never when the fact its ``unless`` names holds of the code (grader/feedback/premises.py)."""
    raised = any(r.error is not None for r in records)
    unless = (case.hint or {}).get("unless")
    names = [s.name for s in case.steps if s.op == "call" and isinstance(s.name, str)]
    scoped = (premises or UNKNOWN).within(names[0]) if len(set(names)) == 1 else (premises or UNKNOWN)
    if unless and getattr(scoped, unless):
        return
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
            name = {"en": first[key].name, "zh": first[key].name_zh or first[key].name}
            t.message = say("explain.same_mistake" if t.mistake else "explain.same_problem", name=name)
        else:
            first[key] = t
