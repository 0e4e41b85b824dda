"""The short form of hidden tests (grader/authoring.py), on the two exercises written with it:
the contract case names a wrong dtype and an input changed in place in the catalogue's words,
and every case carries its Chinese name."""

import pytest

from grader.exercises import get
from grader.paths import deployment_seed

CROSS = "cross-attention"


def _reference_with(old: str, new: str) -> str:
    source = get(CROSS).reference_source()
    assert source.count(old) == 1
    return source.replace(old, new)


@pytest.mark.parametrize(("old", "new", "mistake", "words"), [
    ("    return weights @ V, weights  # (B, n, d_v), (B, n, m)",
     "    return (weights @ V).float(), weights.float()", "wrong-return-type", "in the dtype of its inputs"),
    ("    Q, K, V = dec @ W_q, enc @ W_k, enc @ W_v",
     "    dec /= 2.0\n    Q, K, V = dec @ W_q * 2.0, enc @ W_k, enc @ W_v", "changes-input", "in place"),
])
def test_the_contract_case_names_the_contract_mistakes(grader, old, new, mistake, words):
    report = grader.grade(CROSS, _reference_with(old, new))
    failed = [t for t in report.tests if not t.passed]
    assert [t.name for t in failed] == [get(CROSS).hidden_cases(deployment_seed())[-1].name], failed
    assert failed[0].mistake == mistake and words in failed[0].message["en"]
    assert failed[0].message["zh"] and failed[0].message["zh"] != failed[0].message["en"]


def test_cases_written_short_carry_both_names():
    for ex_id in (CROSS, "add-norm"):
        for c in get(ex_id).hidden_cases(7, cache=False):
            assert c.name and c.zh and c.zh != c.name
