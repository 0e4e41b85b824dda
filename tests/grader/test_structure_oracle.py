"""Red team 5 (N3): the permutation-invariance answers are booleans, so per-case pass/fail is an
answer oracle. A submission that never checks equivariance can tell the hidden calls apart by
their structure (shapes, dtype, perm type, keyword arguments; fresh inputs change only values)
and learn each one's answer from the feedback: 14 of 19 after a few submissions, when every
structure had one answer. Now an equivariant and a non-equivariant layer share each structure
(hidden/permutation-invariance/tests.py), so the oracle ends barely above answering True."""

from __future__ import annotations

import pytest

from grader.api import Grader

EX = "permutation-invariance"
BITS = 8
TEMPLATE = '''
import hashlib, torch
def _fp(layer, x, perm, kw):
    key = (tuple(x.shape), str(x.dtype), type(perm).__name__, sorted(kw.items()),
           sum(p.numel() for p in layer.parameters()))
    return int(hashlib.sha256(repr(key).encode()).hexdigest(), 16) & {mask}
def is_permutation_equivariant(layer, x, perm, **kw):
    h = _fp(layer, x, perm, kw)
    if {mode!r} == "const":
        return True
    if {mode!r} == "bit":
        return bool((h >> {bit}) & 1)
    return bool({table!r}.get(h, True))
def sinusoidal_positional_encoding(seq_len, d_model):
    if d_model % 2:
        raise ValueError("odd d_model")
    return torch.zeros(seq_len, d_model)
'''


@pytest.fixture(scope="module")
def server():
    with Grader(fresh_inputs=True) as g:  # as the app grades: new hidden inputs every time
        yield g


def _grade(server, **kw):
    report = server.grade(EX, TEMPLATE.format(**{"mask": (1 << BITS) - 1, "mode": "table",
                                                 "bit": 0, "table": {}, **kw}))
    return report.score, {t.name: t.passed for t in report.tests}


def test_a_structural_oracle_gains_at_most_two_points_over_answering_true(server):
    const, passed = _grade(server, mode="const")
    cases = [n for n in passed if n != "the answer is a Python bool"
             and not n.startswith(("positional", "the table", "odd"))]
    answer = {n: passed[n] for n in cases}  # passed under True <=> the right answer is True
    print_of = dict.fromkeys(cases, 0)
    for bit in range(BITS):  # one submission per bit of each case's structural fingerprint
        _, seen = _grade(server, mode="bit", bit=bit)
        for n in cases:
            print_of[n] |= int(answer[n] if seen[n] else not answer[n]) << bit
    votes: dict[int, list[bool]] = {}
    for n in cases:
        votes.setdefault(print_of[n], []).append(answer[n])
    table = {h: max(set(v), key=v.count) for h, v in votes.items()}
    shared = sum(1 for v in votes.values() if len(set(v)) > 1)
    assert shared >= 4, votes  # four structures hold both answers
    scores = [_grade(server, table=table)[0] for _ in range(2)]
    assert max(scores) <= const + 2, (const, scores)
