"""The soundness check every exercise's test calls (see grader/FORMAT.md, "Adding an exercise")."""


def assert_exercise_sound(grader, exercise_id: str) -> None:
    """Reference full, starter less, public examples pass on the reference, every mistake named."""
    from grader.exercises import get

    ex = get(exercise_id)
    ref = grader.grade(exercise_id, ex.reference_source())
    assert ref.full_marks, [(t.name, t.message["en"]) for t in ref.tests if not t.passed]
    starter = grader.grade(exercise_id, ex.starter)
    assert starter.status == "graded" and starter.score < starter.max_score
    examples = grader.run_examples(exercise_id, ex.reference_source())
    assert examples.full_marks, [(t.name, t.message["en"]) for t in examples.tests if not t.passed]
    assert ex.mistakes(), "an exercise needs known mistakes to name"
    for m in ex.mistakes():
        rep = grader.grade(exercise_id, m.source)
        assert rep.score < rep.max_score, f"mistake {m.name} scores full marks"
        named = [t for t in rep.tests if t.mistake == m.name]
        assert named, f"mistake {m.name} is named {rep.mistakes()}"
        assert named[0].message == m.message
    for lang in ("en", "zh"):
        assert len(ex.statement[lang]) > 200


def load_reference(exercise_id: str):
    """The exercise's private reference solution (hidden/<id>/reference.py) as a module."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "hidden" / exercise_id / "reference.py"
    spec = importlib.util.spec_from_file_location(f"ref_{exercise_id.replace('-', '_')}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def variant_outcome(grader, exercise_id: str, expected: str | None, source: str) -> tuple[bool, str]:
    """(ok, why) for one learner-style variant: correct ones score full; a wrong one loses
    points, is named as ``expected`` on at least one failed test, and is never named as
    anything else; the named test's message is the mistake's own text."""
    rep = grader.grade(exercise_id, source)
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
