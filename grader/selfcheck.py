"""Checks an exercise is sound: reference scores full, starter less, every mistake caught and
named, both languages present, examples that reveal no hidden value, variants that hold.

The one self-check: ``python -m grader check [ID or folder ...]`` prints its problems, and every
exercise's test (tests/exercises, the ``exercise_sound`` fixture) asserts there are none.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from grader import mistakes, variants
from grader.exercises import Exercise, get

MIN_STATEMENT_CHARS = 200
CHECK_LEARNERS = ("grader-check-1", "grader-check-2")  # learners whose own numbers are checked


class Grades(Protocol):
    """What the check needs of a grader (grader.api.Grader, which calls this module)."""

    def grade(self, exercise_id: str, source: str, learner: str | None = None,
              learner_id: str | None = None) -> Any: ...

    def run_examples(self, exercise_id: str, source: str) -> Any: ...


def check_exercise(grader: Grades, exercise_id: str, verbose: bool = False) -> list[str]:
    """A list of problems (empty when the exercise is sound)."""
    ex = get(exercise_id)
    problems = [p.split(": ", 1)[-1] for p in mistakes.problems(ex)]
    try:
        ex.mistakes()
    except ValueError:  # a stale or ambiguous edit, listed above: nothing more can be graded
        return problems
    learner = CHECK_LEARNERS[0] if variants.has_variant(ex.public_dir) else None
    values = ex.variant_values(learner)
    if learner is not None:
        problems += _variant_problems(ex)
    reference = variants.render(ex.reference_source(), values)
    ref = grader.grade(exercise_id, reference, learner_id=learner)
    if not ref.full_marks:
        bad = [f"{t.name}: {t.message['en']}" for t in ref.tests if not t.passed]
        problems.append(f"reference scores {ref.score}/{ref.max_score}: {bad}")
    starter = grader.grade(exercise_id, variants.render(ex.starter, values), learner_id=learner)
    if starter.status != "graded":
        problems.append(f"starter code does not run to the end (status {starter.status})")
    elif starter.score >= starter.max_score:
        problems.append("starter code scores full marks")
    examples = grader.run_examples(exercise_id, ex.reference_source())
    if not examples.full_marks:  # also when there are none: every exercise shows examples
        problems.append(f"reference fails public examples (or there are none): "
                        f"{[t.message['en'] for t in examples.tests if not t.passed]}")
    problems += _leaks(ex)
    if not ex.mistakes():
        problems.append("an exercise needs known mistakes to name")
    for m in ex.mistakes():
        rep = grader.grade(exercise_id, variants.render(m.source, values), learner_id=learner)
        named = [t for t in rep.tests if t.mistake == m.name]
        if rep.full_marks:
            problems.append(f"mistake {m.name!r} scores full marks")
        elif not named:
            problems.append(f"mistake {m.name!r} loses points but is named {rep.mistakes()}")
        elif named[0].message != m.message:
            problems.append(f"mistake {m.name!r} is named with another message: {named[0].message}")
        if verbose:
            print(f"  {exercise_id}/{m.name}: {rep.score:g}/{rep.max_score:g} named {rep.mistakes()}")
    nameless = [c.name for c in ex.hidden_cases(0) + ex.examples() if not (c.zh or "").strip()]
    if nameless:
        problems.append(f"cases without a Chinese name: {nameless}")
    for lang in ("en", "zh"):
        if len(ex.statement[lang]) <= MIN_STATEMENT_CHARS:
            problems.append(f"the {lang} statement is shorter than {MIN_STATEMENT_CHARS} characters")
        if not (ex.title.get(lang) or "").strip():
            problems.append(f"exercise.json has no {lang} title")
    if verbose:
        print(f"{exercise_id}: reference {ref.score:g}/{ref.max_score:g}, starter "
              f"{starter.score:g}/{starter.max_score:g}, {len(ex.mistakes())} mistakes")
    return problems


def _variant_problems(ex: Exercise) -> list[str]:
    """Per-learner numbers: the same for one learner every time, different between learners,
    placed in the starter and the reference, and shown in both statements."""
    out = []
    a, again, b = (ex.variant_values(x) for x in (CHECK_LEARNERS[0], CHECK_LEARNERS[0], CHECK_LEARNERS[1]))
    if a != again:
        out.append("variant.py draws different numbers for the same learner (use only the rng it gets)")
    if a == b:
        out.append("variant.py draws the same numbers for two learners")
    for what, source in (("starter.py", ex.starter), ("reference.py", ex.reference_source())):
        try:
            variants.render(source, a)
        except ValueError as err:
            out.append(f"{what}: {err}")
    for lang in ("en", "zh"):
        if variants.MARKER not in ex.statement[lang]:
            out.append(f"statement.{lang}.md does not show the learner's numbers ({variants.MARKER})")
    return out


def _arrays(value) -> list[np.ndarray]:
    """``value`` as an array worth comparing: two or more finite numbers, not all 0 or ±1
    (what a statement says in words: sin 0 and cos 0, a mask, an identity)."""
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return []
    plain = np.isin(arr, (-1.0, 0.0, 1.0)).all()
    return [arr] if arr.size >= 2 and np.isfinite(arr).all() and not plain else []


def _checks(step: dict) -> list[dict]:
    found = step.get("check") or []
    return [c for c in (found if isinstance(found, list) else [found]) if isinstance(c, dict)]


def _leaks(ex: Exercise) -> list[str]:
    """An example whose written answer equals a hidden case's expected output hands that case
    out (exercise 1's Part A answers were once printed in its examples)."""
    from grader import bundle

    shown = [(c.name, arr) for c in ex.examples() for s in c.steps for one in _checks(s)
             for arr in _arrays(one.get("expected"))]
    if not shown:
        return []
    b = bundle.load(ex, 0)
    out = []
    for i, case in enumerate(b.cases):
        for record in b.expected.get(i, []):
            for hidden in _arrays(record.value):
                for name, arr in shown:
                    if arr.shape == hidden.shape and np.allclose(arr, hidden, atol=1e-6):
                        out.append(f"example {name!r} shows the expected output of hidden case {case.name!r}")
    return sorted(set(out))
