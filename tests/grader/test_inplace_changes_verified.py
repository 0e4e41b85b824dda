"""Issue 19, F6, replayed through a warm worker: points come only from what the trusted side
can verify. The `unchanged` probe ran next to learner code, so a solution that changed its
input in place and replaced the probe kept the point (manual-attention: 12/12 where the same
code without the patch scored 11/12). Now the in-place case calls the function again on the
very tensors the first call was given and checks that answer against the reference's: no
patch in the sandbox makes a right answer out of changed inputs.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "exercises"))

# Everything in the child that could speak for the inputs, replaced: the probes answer what
# the reference's would, fixtures too, and the runner reads back pristine copies of the
# tensors it keeps (so the wording of a failure is forged too; the score must not be).
PATCH = r'''
import sys as _sys
import torch as _torch
_probes = _sys.modules.get("grader.sandbox.probes")
_runner = _sys.modules.get("grader.sandbox.runner")
_fixtures = _sys.modules.get("grader.sandbox.fixtures")
if _probes is not None:  # what the probe says of the same values as torch tensors
    def _as_torch(v):
        if isinstance(v, (tuple, list)):
            return type(v)(_as_torch(x) for x in v)
        return _torch.from_numpy(v) if type(v).__module__ == "numpy" else v
    _probes.PROBES["returns"] = lambda fn, args=None, kwargs=None: _probes.describe(_as_torch(
        fn(*(args or []), **(kwargs or {}))))
    _probes.PROBES["unchanged"] = lambda fn, args=None, kwargs=None: []
if _fixtures is not None:
    _build = _fixtures.build
    _fixtures.build = lambda name, **kw: [] if name == "unchanged" else _build(name, **kw)
if _runner is not None:
    _step, _pristine = _runner.run_step, {}
    def _run_step(namespace, step, saved):
        if step.get("op") == "keep" and "check" in step:  # read back: the copies made at save
            return [_pristine.get(id(saved.get(a.name)), a) for a in step.get("args", [])]
        value = _step(namespace, step, saved)
        if step.get("op") == "keep" and isinstance(value, _torch.Tensor):
            _pristine[id(value)] = value.clone()
        return value
    _runner.run_step = _run_step
'''

# The issue's attack: Part A right, attention divides the caller's Q in place and returns
# numpy, and the patch above.
ATTACK = r'''
import math
import torch

Q = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
K = Q.clone()
V = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]])


def attention(Q, K, V, mask=None):
    Q /= math.sqrt(Q.shape[-1])
    scores = Q @ K.transpose(-2, -1)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    w = torch.softmax(scores, dim=-1)
    return (w @ V).numpy(), w.numpy()


scores = Q @ K.T / 2
weights = torch.softmax(scores, dim=-1)
context = (weights @ V)[0]
''' + PATCH

EXERCISES = ["manual-attention", "masked-softmax", "causal-mask", "positional-table",
             "additive-attention", "nadaraya-watson", "multi-head-attention", "cross-attention", "add-norm"]


def _changes_input():
    for ex in EXERCISES:
        module = importlib.import_module("variants_" + ex.replace("-", "_"))
        for label, expected, source in module.VARIANTS:
            if expected == "changes-input":
                yield pytest.param(ex, source, id=f"{ex}:{label}")


def test_the_issues_attack_loses_the_point(grader):
    report = grader.grade("manual-attention", ATTACK)
    assert report.score == report.max_score - 1, report.summary["en"]  # it got 12/12
    (bad,) = [t for t in report.tests if not t.passed]
    assert "inputs unchanged" in bad.name


@pytest.mark.parametrize("exercise_id,source", list(_changes_input()))
def test_patching_the_sandbox_earns_no_in_place_point(grader, exercise_id, source):
    """Every learner-style in-place variant, with and without the patch: the patch never
    scores more, and never passes a case the plain run failed."""
    plain = grader.grade(exercise_id, source)
    patched = grader.grade(exercise_id, source + PATCH)
    assert not patched.full_marks and patched.score <= plain.score, patched.summary["en"]
    failed = {t.name for t in plain.tests if not t.passed}
    assert failed <= {t.name for t in patched.tests if not t.passed}


def test_a_correct_solution_with_the_patch_still_scores_full(grader):
    """The patch changes no right answer: the checks that moved to the trusted side ask only
    for right values."""
    from grader.exercises import get

    for ex in EXERCISES:
        report = grader.grade(ex, get(ex).reference_source() + PATCH)
        assert report.full_marks, (ex, [t.name for t in report.tests if not t.passed])
