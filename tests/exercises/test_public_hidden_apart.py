"""Issue 19, F7 / property 5: public examples and hidden cases never share inputs whose answers
are printed in the public file. Pasting manual-attention's public answers (the lesson's
matrices, as in hidden Part A) with no computation scored 6/12."""

from __future__ import annotations

import pytest
import torch

from grader.exercises import all_exercises
from grader.spec import Ref

EXERCISES = sorted(all_exercises())


def _tensors(value) -> list[torch.Tensor]:
    if isinstance(value, torch.Tensor):
        return [value] if value.numel() > 1 else []  # a lone number says nothing of an answer
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in _tensors(v)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _tensors(v)]
    return []


def _inputs(cases) -> list[torch.Tensor]:
    return [t for case in cases for step in case.steps if not isinstance(step, Ref)
            for t in _tensors([step.get("args", []), step.get("kwargs", {})])]


def _got_names(cases, printed: bool) -> set[str]:
    """Module-level names a case checks (``printed``: with the expected value in the file)."""
    return {step["name"] for case in cases for step in case.steps if step.get("op") == "get"
            and step.get("check") and (not printed or "expected" in step["check"])}


@pytest.mark.parametrize("exercise_id", EXERCISES)
def test_no_hidden_input_is_a_public_example_input(exercise_id):
    ex = all_exercises()[exercise_id]
    public = _inputs(ex.examples())
    for hidden in _inputs(ex.hidden_cases(0)):
        same = [p for p in public if p.shape == hidden.shape and p.dtype == hidden.dtype
                and torch.equal(p, hidden)]
        assert not same, (exercise_id, hidden)


@pytest.mark.parametrize("exercise_id", EXERCISES)
def test_no_public_file_prints_the_answer_to_a_hidden_module_level_check(exercise_id):
    """A module-level name has no inputs: a hidden check of it tests the statement's own
    values, so a public example must not print them."""
    ex = all_exercises()[exercise_id]
    assert not _got_names(ex.examples(), printed=True) & _got_names(ex.hidden_cases(0), printed=False)
