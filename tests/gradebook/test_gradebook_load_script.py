"""The load script's own arithmetic and mix, checked without starting an app."""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def load_test():
    spec = importlib.util.spec_from_file_location("load_test", REPO / "scripts" / "load_test.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["load_test"] = module  # dataclasses look their module up while being built
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("n", [1, 2, 7, 50, 101])
def test_percentile_is_numpys_nearest_rank(load_test, n):
    values = list(np.random.default_rng(n).exponential(size=n))
    for q in (50, 95, 100):
        assert load_test.percentile(values, q) == np.percentile(values, q, method="inverted_cdf")


def test_mix_of_fifty_and_the_bad_inputs(load_test):
    plan = load_test.build_submissions(50, port=4242, tag="t", seed=0, bad_input=True)
    kinds = Counter(p[0] for p in plan)
    assert kinds == {"correct": 25, "wrong": 15, "hostile": 10, "bad": 6}
    learners = [p[4] for p in plan if p[0] != "bad"]
    assert len(set(learners)) == 50  # one learner each: the rate limit is not what is measured
    hidden = REPO / "hidden"
    for kind, label, ex, code, _ in plan:
        if kind == "correct":
            assert code == (hidden / ex / "reference.py").read_text()
        if label == "hostile:connect-app":
            assert "4242" in code  # aimed at the app's own loopback port, nowhere else
    assert [p[:2] for p in plan] != [p[:2] for p in
                                     load_test.build_submissions(50, 4242, "t", seed=1)]
