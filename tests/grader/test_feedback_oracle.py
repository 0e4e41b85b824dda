"""Feedback is no oracle: solution-free submissions score no more than the best constant answer.

Each attack is a real submission through ``grader.api.Grader`` with warm workers: constant
answers, a two-pass replay of the first report's feedback in call order, answering from the
fixture's class name and attributes, and submissions that try to smuggle hidden inputs out
through exception text, wrong shapes, large differences or printed output.
"""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest

from grader import bundle
from grader.exercises import get
from grader.paths import deployment_seed

EQ = "permutation-invariance"
CAUSAL = "causal-mask"
TABLE = '''
def sinusoidal_positional_encoding(seq_len, d_model):
    raise ValueError("not attempted")
'''


def _answers_src(body: str) -> str:
    return "import torch\n\n" + body + TABLE


def _const(value: bool) -> str:
    return _answers_src(f"def is_permutation_equivariant(layer, x, perm, atol=1e-5):\n    return {value}\n")


def _bool_cases(report) -> list:
    return [t for t in report.tests if t.name not in _NOT_ANSWERS and "table" not in t.name
            and "d_model" not in t.name]


_NOT_ANSWERS = {"the answer is a Python bool"}


def _bool_score(report) -> float:
    return sum(t.score for t in _bool_cases(report))


def _parse_expected(report) -> list[bool]:
    """What a learner can read from the report of a constant-True submission: the answer of
    every case, in report (canonical) order."""
    out = []
    for t in _bool_cases(report):
        text = t.message["en"]
        out.append(t.passed or "where the layer is equivariant" in text)
    return out


def test_constant_answers_and_the_chance_level(grader):
    yes, no = grader.grade(EQ, _const(True)), grader.grade(EQ, _const(False))
    assert _bool_score(yes) + _bool_score(no) == len(_bool_cases(yes))  # each case has one answer
    assert 0 < _bool_score(yes) < len(_bool_cases(yes))


def test_two_pass_replay_in_call_order_is_chance(grader):
    """Pass 1 answers True everywhere; its report tells (in words) which answer each case
    wanted. Pass 2 replays those answers in call order. Case order is shuffled per
    submission, so the replay is a random guess: its mean score over many submissions stays
    at the chance level, which is below the best constant answer."""
    first = grader.grade(EQ, _const(True))
    wanted = _parse_expected(first)
    assert len(wanted) >= 8
    assert wanted.count(True) != len(wanted) and wanted.count(False) > 0
    replay = _answers_src(
        f"ANSWERS = {wanted!r}\n_calls = []\n\n"
        "def is_permutation_equivariant(layer, x, perm, atol=1e-5):\n"
        "    _calls.append(1)\n"
        "    i = len(_calls) - 1\n"
        "    return ANSWERS[i] if i < len(ANSWERS) else True\n")
    best_constant = max(wanted.count(True), wanted.count(False))
    n, t = len(wanted), wanted.count(True)
    # Expected matches of a uniformly shuffled answer list (hypergeometric): the chance level.
    chance = (t * t + (n - t) * (n - t)) / n
    k_var = t * (t / n) * ((n - t) / n) * ((n - t) / (n - 1))  # variance of True-on-True hits
    sd = 2 * math.sqrt(k_var)
    assert chance <= best_constant  # a weighted mean of t and n - t: never above the larger
    runs = [_bool_score(grader.grade(EQ, replay)) for _ in range(30)]
    mean = sum(runs) / len(runs)
    assert len(set(runs)) > 1, "every replay scored the same: the case order is not shuffled"
    # One-sided 3-sigma test of "no better than chance" (false alarm rate 0.13%); a replay that
    # learned anything from the first report would score near full marks instead.
    assert mean <= chance + 3 * sd / math.sqrt(len(runs)), (mean, chance, best_constant, runs)


INTROSPECT = _answers_src('''
def is_permutation_equivariant(layer, x, perm, atol=1e-5):
    name = type(layer).__name__ + " " + " ".join(c.__name__ for c in type(layer).__mro__)
    attrs = {k: v for k, v in vars(layer).items()}
    if getattr(layer, "causal", False) or getattr(layer, "eps", 0) > 1e-5:
        return False
    for word in ("AddPositions", "CumulativeSum", "Nearly", "add_positions", "cumulative"):
        if word in name or any(word in str(k) for k in attrs):
            return False
    fn = getattr(type(layer), "forward")
    if "Positions" in fn.__qualname__ or "Cumulative" in fn.__qualname__:
        return False
    return True
''')


def test_fixture_introspection_scores_no_more_than_a_constant(grader):
    yes = _bool_score(grader.grade(EQ, _const(True)))
    no = _bool_score(grader.grade(EQ, _const(False)))
    for _ in range(3):
        assert _bool_score(grader.grade(EQ, INTROSPECT)) <= max(yes, no)


def test_fixture_names_change_per_submission(grader):
    spy = _answers_src('''
def is_permutation_equivariant(layer, x, perm, atol=1e-5):
    raise TypeError("probe " + type(layer).__name__)
''')
    first = grader.run_examples(EQ, spy)  # public examples may show messages in full
    second = grader.run_examples(EQ, spy)
    names = [re.findall(r"probe (\w+)", t.message["en"]) for t in first.tests + second.tests]
    names = [n[0] for n in names if n]
    assert len(names) >= 4 and len(set(names)) >= 2
    assert not any(word in n for n in names for word in ("Token", "Cumulative", "Linear"))


def _hidden_numbers(exercise_id: str) -> set[str]:
    """Every hidden input and expected value, printed the ways a leak would print it."""
    b = bundle.load(get(exercise_id), deployment_seed())
    found: set[str] = set()

    def walk(v):
        if isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, (list, tuple)):
            for x in v:
                walk(x)
        elif hasattr(v, "shape") and getattr(v, "dtype", None) is not None:
            arr = np.asarray(v, dtype=np.float64).reshape(-1)
            for x in arr[:200]:
                if abs(x) > 1e-3 and x not in (0.0, 1.0):
                    found.update({f"{x:.3f}", f"{x:.4f}"})

    for case in b.cases:
        walk(case.steps)
    for recs in b.expected.values():
        walk([r.to_wire() for r in recs])
    return found


LEAKY = {
    EQ: _answers_src('''
def is_permutation_equivariant(layer, x, perm, atol=1e-5):
    print("INPUT", x.tolist())
    raise ValueError("x = " + str(x.flatten().tolist()[:20]))
'''),
    CAUSAL: '''
import torch

def causal_mask(n):
    raise ValueError(str(torch.randn(3).tolist()) + " mask " + str(n * 12345))

def causal_attention(Q, K, V):
    w = torch.softmax(Q @ K.transpose(-2, -1), dim=-1) + Q.flatten()[0] * 1000
    out = w @ V
    return torch.zeros(int(abs(float(Q.flatten()[0])) * 1000) + 1), w
''',
}


@pytest.mark.parametrize("exercise_id", [EQ, CAUSAL])
def test_hidden_messages_carry_no_inputs_or_expected_values(grader, exercise_id):
    ex = get(exercise_id)
    numbers = _hidden_numbers(exercise_id)
    assert numbers
    sources = [LEAKY[exercise_id], ex.starter] + [m.source for m in ex.mistakes()]
    for source in sources:
        report = grader.grade(exercise_id, source)
        for t in report.tests:
            assert not t.visible
            text = json.dumps([t.message, t.details], ensure_ascii=False)
            assert "expected True" not in text and "expected False" not in text
            assert "应为 True" not in text and "应为 False" not in text
            assert "largest difference" not in text and "tolist" not in text
            leaked = [n for n in numbers if n in text]
            assert not leaked, (t.name, leaked[:5], text[:300])
            assert "12345" not in text  # a learner-chosen number in an exception message
        assert "INPUT" not in report.output  # printed during hidden tests: withheld


def test_public_examples_still_show_everything(grader):
    report = grader.run_examples(EQ, _const(False))
    failed = [t for t in report.tests if not t.passed]
    assert failed and all(t.visible for t in report.tests)
    assert any("expected True" in t.message["en"] for t in failed)


def test_loading_code_cannot_raise_hidden_inputs_into_the_report(grader):
    """Code that runs at load time can walk frames up to the job and read every hidden input;
    an exception raised then must not carry them into the report (the public examples show
    load errors in full, and they hold no hidden data)."""
    source = '''
import sys
f = sys._getframe()
found = []
while f is not None:
    job = f.f_locals.get("job")
    if isinstance(job, dict) and "cases" in job:
        found = [str(a.flatten().tolist()[:8]) for c in job["cases"] for s in c
                 for a in s.get("args", []) if hasattr(a, "flatten")]
        break
    f = f.f_back
raise ValueError("shape mismatch " + " ".join(found)[:2000])
'''
    numbers = _hidden_numbers(CAUSAL)
    report = grader.grade(CAUSAL, source)
    assert report.status == "load_error" and report.score == 0
    text = json.dumps([[t.message, t.details] for t in report.tests], ensure_ascii=False)
    assert not [n for n in numbers if n in text]


def test_printed_output_never_carries_hidden_inputs(grader):
    """Loading code can read the job's inputs and print them; a hidden run's own output is
    therefore never shown. What the module prints while loading is still shown (from a load
    with no cases), and a note says when the hidden tests printed more."""
    walker = '''
import sys
print("hello from loading")
f = sys._getframe()
while f is not None:
    try:  # whatever the runner holds while loading: print every tensor argument it can find
        job = f.f_locals.get("job")
        print([str(a.flatten().tolist()[:8]) for c in job["cases"] for s in c
               for a in s.get("args", []) if hasattr(a, "flatten")])
    except Exception:
        pass
    f = f.f_back

def causal_mask(n):
    print("INSIDE", n)
    raise ValueError("no")

def causal_attention(Q, K, V):
    print(Q.tolist())
    raise ValueError("no")
'''
    numbers = _hidden_numbers(CAUSAL)
    report = grader.grade(CAUSAL, walker)
    assert "hello from loading" in report.output
    assert "INSIDE" not in report.output and "not shown" in report.output
    assert not [n for n in numbers if n in report.output]
    quiet = grader.grade(CAUSAL, get(CAUSAL).reference_source())
    assert quiet.output == ""
