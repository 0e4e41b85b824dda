"""bundle.py: an exercise's cases, the reference's records and each mistake's, cached in memory and
on disk. Expected values are checked against the reference called directly, without the runner
or the codec."""

import importlib.util
import shutil

import numpy as np
import pytest
import torch

from grader import bundle
from grader.exercises import get
from grader.feedback.judge import judge_case
from grader.paths import deployment_seed, hidden_root
from grader.sandbox import codec
from grader.typed import Record

EX = "masked-softmax"


def _module(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _weight_cases(b):
    """(index, X, valid_lens) of every case that calls masked_softmax once and checks weights
    (as tensors: a bundle read from the disk cache holds its inputs as numpy arrays)."""
    for i, case in enumerate(b.cases):
        step = case.steps[0]
        if len(case.steps) == 1 and step["op"] == "call" and "raises" not in step:
            X, lens = step["args"]
            yield i, torch.as_tensor(X), None if lens is None else torch.as_tensor(lens)


def test_expected_records_are_the_reference_called_directly():
    b = bundle.load(get(EX), deployment_seed())
    reference = _module(hidden_root() / EX / "reference.py", "_ref_masked_softmax")
    seen = 0
    for i, X, lens in _weight_cases(b):
        want = reference.masked_softmax(X.clone(), None if lens is None else lens.clone()).numpy()
        got = b.expected[i][0].value
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
        seen += 1
    assert seen >= 5


def test_a_mistakes_records_are_that_mistake_called_directly_and_fail_a_case(tmp_path):
    ex = get(EX)
    b = bundle.load(ex, deployment_seed())
    zero = next(m for m in b.mistakes if m.name == "zero-fill")
    # the mutant is the reference with the entry's named edit (mistakes.json)
    mutant = tmp_path / "zero_fill.py"
    mutant.write_text(next(m.source for m in ex.mistakes() if m.name == "zero-fill"))
    wrong = _module(mutant, "_zero_fill")
    failed = 0
    for i, X, lens in _weight_cases(b):
        want = wrong.masked_softmax(X.clone(), None if lens is None else lens.clone()).numpy()
        np.testing.assert_allclose(zero.records[i][0].value, want, rtol=0, atol=1e-12)
        failed += not judge_case(b.tests[i], zero.records[i], b.expected[i])[0]
    assert failed >= 3  # the mistake is caught where lengths hide keys
    assert {m.name for m in b.mistakes} == {m.name for m in ex.mistakes()}
    for i, case in enumerate(b.tests):  # the reference passes its own cases
        assert judge_case(case, b.expected[i], b.expected[i]) == (True, None)


def test_the_loaded_bundle_is_kept_in_memory():
    ex = get(EX)
    assert bundle.load(ex, deployment_seed()) is bundle.load(ex, deployment_seed())


def test_a_fresh_bundle_runs_the_mistakes_only_when_asked():
    ex = get(EX)
    b = bundle.fresh(ex, 11)
    assert callable(b.mistakes) and b.exercise_id == EX and b.diagnose is ex.diagnoser()
    known = b.known_mistakes()
    assert not callable(b.mistakes) and b.known_mistakes() is known
    assert [m.name for m in known] == [m.name for m in ex.mistakes()]
    assert all(set(m.records) == set(range(len(b.cases))) for m in known)
    other = bundle.fresh(ex, 12)
    assert not np.array_equal(b.cases[1].steps[0]["args"][0], other.cases[1].steps[0]["args"][0])


def test_the_examples_bundle_has_literal_expectations_and_no_mistakes():
    b = bundle.examples(get(EX))
    assert b.expected == {} and b.known_mistakes() == [] and b.diagnose is None
    assert b.tests and all(c.visible for c in b.tests)
    assert all(chk.literal for c in b.tests for s in c.steps for chk in s.checks if chk.kind != "raises")


@pytest.mark.parametrize("wire", [
    {"value": np.arange(3.0)},
    {"raised": ["ValueError", "Exception", "BaseException", "object"], "message": "bad X"},
    {"raised": None, "value": None},
    {"error": {"type": "TypeError", "mro": ["TypeError", "Exception"], "message": "m", "traceback": "t"}},
])
def test_records_keep_the_form_the_runner_writes(wire):
    back = Record.from_wire(wire).to_wire()
    assert back.keys() == wire.keys()
    assert codec.pack(back) == codec.pack(wire)


@pytest.fixture
def hidden_copy(tmp_path, monkeypatch):
    shutil.copytree(hidden_root() / EX, tmp_path / EX)
    monkeypatch.setenv("LAB_HIDDEN_DIR", str(tmp_path))
    return tmp_path


def test_the_disk_cache_is_read_back_and_rebuilt_when_damaged(hidden_copy):
    ex, seed = get(EX), 424242
    path = bundle._cache_path(ex, seed)
    assert path.parent == hidden_copy / ".cache" and not path.exists()
    built = bundle._load_or_build(ex, seed)
    assert path.is_file() and (path.parent.stat().st_mode & 0o777) == 0o700
    data = codec.unpack(path.read_bytes())
    assert [c["name"] for c in data["cases"]] == [c.name for c in built.cases]
    data["cases"][0]["name"] = "read from disk"  # a mark that only a disk read can return
    path.write_bytes(codec.pack(data))
    again = bundle._load_or_build(ex, seed)
    assert again.cases[0].name == "read from disk" and again.exercise_id == EX
    assert [m.name for m in again.mistakes] == [m.name for m in built.mistakes]
    for i in built.expected:
        for got, want in zip(again.expected[i], built.expected[i], strict=True):
            assert codec.pack(got.to_wire()) == codec.pack(want.to_wire())
    path.write_bytes(b"\x00\x00\x00\x09not json!")
    rebuilt = bundle._load_or_build(ex, seed)
    assert rebuilt.cases[0].name == built.cases[0].name
    assert codec.unpack(path.read_bytes())["cases"][0]["name"] == built.cases[0].name


def test_a_changed_hidden_file_changes_the_cache_key(hidden_copy):
    ex = get(EX)
    before = bundle._cache_path(ex, 1)
    tests = hidden_copy / EX / "tests.py"
    tests.write_text(tests.read_text() + "\n# edited\n")
    assert bundle._cache_path(ex, 1) != before
