"""Learner-style variants of every named mistake (two or more spellings each, unlike the
mistake files): correct ones score full, wrong ones lose points and are named right, never
wrongly. scripts/measure_diagnosis.py prints the same figures."""

import importlib

import pytest
from soundness import variant_outcome

EXERCISES = ["multi-head-attention", "permutation-invariance", "masked-softmax", "causal-mask", "positional-table", "manual-attention", "additive-attention", "nadaraya-watson", "cross-attention", "add-norm", "position-wise-ffn"]


def _cases():
    for ex in EXERCISES:
        module = importlib.import_module("variants_" + ex.replace("-", "_"))
        learner_for = getattr(module, "GRADED_FOR", {})  # mistakes shown on a learner's own numbers
        for label, expected, source in module.VARIANTS:
            yield pytest.param(ex, expected, source, learner_for.get(expected), id=f"{ex}:{label}")


@pytest.mark.parametrize("exercise_id,expected,source,learner_id", list(_cases()))
def test_variant_is_graded_and_named(grader, exercise_id, expected, source, learner_id):
    ok, why = variant_outcome(grader, exercise_id, expected, source, learner_id)
    assert ok, why


def test_every_mistake_has_two_spellings():
    from grader.exercises import get

    for ex in EXERCISES:
        module = importlib.import_module("variants_" + ex.replace("-", "_"))
        counts = {}
        for _label, expected, _src in module.VARIANTS:
            counts[expected] = counts.get(expected, 0) + 1
        for m in get(ex).mistakes():
            assert counts.get(m.name, 0) >= 2, (ex, m.name)


def _unknown():
    import variants_unknown

    for exercise_id, label, allowed, source in variants_unknown.UNKNOWN:
        yield pytest.param(exercise_id, allowed, source, id=f"{exercise_id}:{label}")


@pytest.mark.parametrize("exercise_id,allowed,source", list(_unknown()))
def test_unknown_bug_is_never_named_wrongly(grader, exercise_id, allowed, source):
    rep = grader.grade(exercise_id, source)
    assert not rep.full_marks
    assert set(rep.mistakes()) <= allowed, rep.mistakes()
