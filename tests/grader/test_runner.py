"""grader/runner.py on the trusted side: reference and mistake files run on the inputs a
sandboxed learner gets, one copy per step, so in-place changes stay in their own step."""

from __future__ import annotations

import numpy as np
import torch

from grader import bundle, codec, runner
from grader.exercises import get
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
