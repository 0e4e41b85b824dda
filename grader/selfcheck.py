"""Checks an exercise is sound: reference scores full, starter less, every mistake caught and named."""

from __future__ import annotations

from grader import api
from grader.exercises import get


def check_exercise(grader: api.Grader, exercise_id: str, verbose: bool = False) -> list[str]:
    """A list of problems (empty when the exercise is sound)."""
    ex = get(exercise_id)
    problems = []
    ref = grader.grade(exercise_id, ex.reference_source())
    if not ref.full_marks:
        bad = [f"{t.name}: {t.message['en']}" for t in ref.tests if not t.passed]
        problems.append(f"reference scores {ref.score}/{ref.max_score}: {bad}")
    starter = grader.grade(exercise_id, ex.starter)
    if starter.score >= starter.max_score:
        problems.append("starter code scores full marks")
    examples = grader.run_examples(exercise_id, ex.reference_source())
    if ex.examples() and not examples.full_marks:
        problems.append(f"reference fails public examples: "
                        f"{[t.message['en'] for t in examples.tests if not t.passed]}")
    for m in ex.mistakes():
        rep = grader.grade(exercise_id, m.source)
        if rep.full_marks:
            problems.append(f"mistake {m.name!r} scores full marks")
        elif m.name not in rep.mistakes():
            problems.append(f"mistake {m.name!r} loses points but is named {rep.mistakes()}")
        if verbose:
            print(f"  {exercise_id}/{m.name}: {rep.score:g}/{rep.max_score:g} named {rep.mistakes()}")
    if verbose:
        print(f"{exercise_id}: reference {ref.score:g}/{ref.max_score:g}, starter "
              f"{starter.score:g}/{starter.max_score:g}, {len(ex.mistakes())} mistakes")
    return problems
