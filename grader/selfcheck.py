"""Checks an exercise is sound: reference scores full, starter less, every mistake caught and named.

The one self-check: ``python -m grader check`` prints its problems, and every exercise's test
(tests/exercises, the ``exercise_sound`` fixture) asserts there are none.
"""

from __future__ import annotations

from grader import api
from grader.exercises import get

MIN_STATEMENT_CHARS = 200


def check_exercise(grader: api.Grader, exercise_id: str, verbose: bool = False) -> list[str]:
    """A list of problems (empty when the exercise is sound)."""
    ex = get(exercise_id)
    problems = []
    ref = grader.grade(exercise_id, ex.reference_source())
    if not ref.full_marks:
        bad = [f"{t.name}: {t.message['en']}" for t in ref.tests if not t.passed]
        problems.append(f"reference scores {ref.score}/{ref.max_score}: {bad}")
    starter = grader.grade(exercise_id, ex.starter)
    if starter.status != "graded":
        problems.append(f"starter code does not run to the end (status {starter.status})")
    elif starter.score >= starter.max_score:
        problems.append("starter code scores full marks")
    examples = grader.run_examples(exercise_id, ex.reference_source())
    if not examples.full_marks:  # also when there are none: every exercise shows examples
        problems.append(f"reference fails public examples (or there are none): "
                        f"{[t.message['en'] for t in examples.tests if not t.passed]}")
    if not ex.mistakes():
        problems.append("an exercise needs known mistakes to name")
    for m in ex.mistakes():
        rep = grader.grade(exercise_id, m.source)
        named = [t for t in rep.tests if t.mistake == m.name]
        if rep.full_marks:
            problems.append(f"mistake {m.name!r} scores full marks")
        elif not named:
            problems.append(f"mistake {m.name!r} loses points but is named {rep.mistakes()}")
        elif named[0].message != m.message:
            problems.append(f"mistake {m.name!r} is named with another message: {named[0].message}")
        if verbose:
            print(f"  {exercise_id}/{m.name}: {rep.score:g}/{rep.max_score:g} named {rep.mistakes()}")
    for lang in ("en", "zh"):
        if len(ex.statement[lang]) <= MIN_STATEMENT_CHARS:
            problems.append(f"the {lang} statement is shorter than {MIN_STATEMENT_CHARS} characters")
    if verbose:
        print(f"{exercise_id}: reference {ref.score:g}/{ref.max_score:g}, starter "
              f"{starter.score:g}/{starter.max_score:g}, {len(ex.mistakes())} mistakes")
    return problems
