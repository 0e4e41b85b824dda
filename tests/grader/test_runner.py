"""grader/sandbox/runner.py on the trusted side: reference and mistake files run on the inputs a
sandboxed learner gets, one copy per step, so in-place changes stay in their own step."""

from __future__ import annotations

import numpy as np
import torch

from grader import bundle
from grader.exercises import get
from grader.sandbox import codec, runner
from grader.spec import call, check, new, ref

# Mutates its argument in place, then returns the sum; `look` returns what it was given.
MUTATES = '''
import torch

def scale(x):
    x.mul_(10)
    return x.sum()

def look(x):
    return x.clone()

class Layer(torch.nn.Module):
    def forward(self, x):
        x.add_(1)
        return x
'''


def _records(messages: list[dict]) -> list[list[dict]]:
    return [m["records"] for m in messages if m["kind"] == "case"]


def test_an_in_place_change_never_reaches_a_later_step_or_case():
    x = torch.arange(4.0)  # (4,): the same tensor object in every step, as cases often write it
    cases = [[call("scale", x, check=check()), call("look", x, check=check())],
             [call("look", x, check=check())],
             [new("Layer", save="m"), call(ref("m"), x, check=check()), call("look", x, check=check())]]
    got = _records(runner.run_trusted(MUTATES, cases))
    np.testing.assert_array_equal(got[0][0]["value"], 60.0)  # 10 * (0 + 1 + 2 + 3)
    for later in (got[0][1], got[1][0], got[2][2]):
        np.testing.assert_array_equal(later["value"], [0.0, 1.0, 2.0, 3.0])
    np.testing.assert_array_equal(got[2][1]["value"], [1.0, 2.0, 3.0, 4.0])
    assert torch.equal(x, torch.arange(4.0))  # the cases themselves are untouched
    again = _records(runner.run_trusted(MUTATES, cases))  # the next trusted run sees the same
    np.testing.assert_array_equal(again[0][0]["value"], 60.0)


def test_trusted_inputs_are_what_the_sandbox_receives():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)[:, ::2]  # numpy, not contiguous
    steps = [call("look", torch.as_tensor(x.copy()), check=check(expected=1.0))]
    (received,) = runner.as_received([steps])
    assert received[0]["check"] == {}  # expected values never travel with the inputs
    (arg,) = received[0]["args"]
    assert isinstance(arg, torch.Tensor) and arg.dtype == torch.float32
    np.testing.assert_array_equal(arg.numpy(), x)


def test_a_mistake_that_changes_its_input_leaves_the_next_runs_inputs_alone():
    """masked-softmax's X zeroed in place by a mistake file run on the cases (as a bundle runs
    every mistake): the reference run afterwards records exactly what it recorded before (it
    was run on the zeroed X and lost its marks to its own expected values)."""
    ex = get("masked-softmax")
    cases = ex.hidden_cases(7, cache=False)
    clobber = ex.reference_source() + (
        "\n_orig = masked_softmax\n\ndef masked_softmax(X, valid_lens):\n"
        "    out = _orig(X, valid_lens)\n    X.fill_(0.0)\n    return out\n")
    first = bundle.trusted_records(ex.reference_source(), cases)
    mistake = bundle.trusted_records(clobber, cases)
    again = bundle.trusted_records(ex.reference_source(), cases)
    assert first.cases.keys() == again.cases.keys() == mistake.cases.keys()
    for i, records in first.cases.items():
        assert [codec.pack(r.to_wire()) for r in records] == \
            [codec.pack(r.to_wire()) for r in again.cases[i]], f"case {i} changed"


# spec.again (issue 19, F6): the function called again on the very tensors its first call got.
AGAIN = '''
import torch

calls = []

def right(x):
    return x * 2

def scales(x):
    x.mul_(3)  # changes the caller's x in place, and answers from it
    return x * 2

def wrong(x):
    return x * 5

def noisy(x):
    calls.append(1)
    return x * 2 + len(calls)  # two answers to one question, x untouched
'''
_FAIL = {"en": "in place", "zh": "原地", "mistake": "changes-input"}


def _again_case(name: str):
    from grader.spec import Case, again, inputs
    from grader.typed import TestCase

    x = torch.arange(1.0, 4.0)
    return TestCase.of(Case("again", 1, again(name, inputs(x), inputs(x), check=check(label="y"),
                                              fail=_FAIL)))


def _judged(name: str):
    from grader.feedback.judge import judge_case
    from grader.typed import Run

    case = _again_case(name)
    got = Run.of(runner.run_trusted(AGAIN, [case.to_wire()])).cases[0]
    reference = f"def {name}(x):\n    return x * 2\n"  # what `right` does
    expected = Run.of(runner.run_trusted(reference, [case.to_wire()])).cases[0]
    return judge_case(case, got, expected), got


def test_again_passes_only_a_right_answer_on_the_same_tensors():
    (passed, problem), got = _judged("right")
    assert passed and problem is None
    (passed, problem), got = _judged("scales")
    assert not passed and problem == {"en": "in place", "zh": "原地", "mistake": "changes-input"}
    # the read-back after the first call is a copy: 3x the input, not what later calls made it
    back = next(r.value for s, r in zip(_again_case("scales").steps, got, strict=True)
                if s.op == "keep" and s.checks == () and r.value is not None)
    np.testing.assert_array_equal(back, [3.0, 6.0, 9.0])


def test_again_says_in_place_only_where_the_inputs_changed():
    """A wrong answer, or two answers to one question, fails in the words any wrong answer
    gets: the tensors read back are what was passed, so nothing was changed in place."""
    for name in ("wrong", "noisy"):
        (passed, problem), _ = _judged(name)
        assert not passed and problem is not None and problem.get("mistake") is None, name
        assert "in place" not in problem["en"], name
