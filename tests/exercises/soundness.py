"""Helpers for the exercises' tests: the private reference as a module, and a learner variant's outcome.

The soundness check itself is grader/selfcheck.py (the ``exercise_sound`` fixture in conftest).
"""


def load_reference(exercise_id: str):
    """The exercise's private reference solution (hidden/<id>/reference.py) as a module."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "hidden" / exercise_id / "reference.py"
    spec = importlib.util.spec_from_file_location(f"ref_{exercise_id.replace('-', '_')}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def variant_outcome(grader, exercise_id: str, expected: str | None, source: str,
                    learner_id: str | None = None) -> tuple[bool, str]:
    """(ok, why) for one learner-style variant: correct ones score full; a wrong one loses
    points, is named as ``expected`` on at least one failed test, and is never named as
    anything else; the named test's message is the mistake's own text. ``learner_id``: grade
    for that learner's own numbers (an exercise with variants)."""
    rep = grader.grade(exercise_id, source, learner_id=learner_id)
    if expected is None:
        bad = [(t.name, t.message["en"]) for t in rep.tests if not t.passed]
        return rep.full_marks, f"a correct variant lost points: {bad}"
    if rep.full_marks:
        return False, "scored full marks"
    named = set(rep.mistakes())
    if named - {expected}:
        return False, f"named wrongly: {sorted(named)} (expected {expected})"
    if expected not in named:
        return False, f"not named: {[(t.name, t.message['en'][:90]) for t in rep.tests if not t.passed]}"
    return True, ""
