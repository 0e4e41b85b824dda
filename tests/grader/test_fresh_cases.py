"""Fresh hidden cases per submission (grader.bundle.fresh) come from the tests file's
``build(rng)``, whose module is loaded once while the file is unchanged (issue 17: executing
it for every submission was 6% of the app's CPU in a class's burst). The cached module must
give exactly what a fresh load gives: the same cases from one seed, other values from another,
and a changed file is read again."""

from __future__ import annotations

import shutil

import pytest
import torch

from grader import exercises as ex_mod
from grader.exercises import all_exercises

EXERCISES = sorted(all_exercises())


def _tensors(cases) -> list[torch.Tensor]:
    out = []

    def walk(x):
        if isinstance(x, torch.Tensor):
            out.append(x)
        elif isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, (list, tuple)):
            for v in x:
                walk(v)

    for case in cases:
        for step in case.steps:
            if isinstance(step, dict):
                walk([step.get("args", []), step.get("kwargs", {})])
    return out


def _same(a, b) -> bool:
    ta, tb = _tensors(a), _tensors(b)
    return [c.name for c in a] == [c.name for c in b] and len(ta) == len(tb) and all(
        x.shape == y.shape and x.dtype == y.dtype and torch.equal(x, y) for x, y in zip(ta, tb, strict=True))


@pytest.mark.parametrize("exercise_id", EXERCISES)
def test_the_held_module_builds_what_a_fresh_load_builds(exercise_id):
    ex = all_exercises()[exercise_id]
    ex_mod._TESTS.clear()
    first = ex.hidden_cases(4242, cache=False)  # loads the module
    again = ex.hidden_cases(4242, cache=False)  # the held module, a second build
    ex_mod._TESTS.clear()
    reloaded = ex.hidden_cases(4242, cache=False)
    assert _same(first, again) and _same(first, reloaded)
    other = ex.hidden_cases(4243, cache=False)
    assert _tensors(other) and not _same(first, other)  # another seed, other inputs


def test_a_changed_tests_file_is_read_again(tmp_path, monkeypatch):
    ex = all_exercises()["causal-mask"]
    copy = tmp_path / "causal-mask"
    shutil.copytree(ex.hidden_dir, copy)
    monkeypatch.setattr(type(ex), "hidden_dir", property(lambda self: copy), raising=False)
    before = ex.hidden_cases(7, cache=False)
    tests = copy / "tests.py"
    tests.write_text(tests.read_text(encoding="utf-8") + "\n\n_BUILD = build\n\n"
                     "def build(rng):\n    return _BUILD(rng)[:1]\n", encoding="utf-8")
    after = ex.hidden_cases(7, cache=False)
    assert len(before) > 1 and len(after) == 1 and after[0].name == before[0].name
