"""Issue 19 (red team, third pass), grader side, each replayed as the real attack through a
warm worker: the trusted side bounds its work by the bytes it received before doing it (F1 a
shape of 30,000 huge dimensions ending in 0, F2 zero-byte outputs of 2**19 empty rows), and a
0-d result stays 0-d. The trusted CPU of one grade is measured with ``time.thread_time``:
grading runs in the calling thread (pool._collect, messages, judge, explain)."""

from __future__ import annotations

import time

import pytest

from grader.exercises import get

EX = get("manual-attention")
REF = EX.reference_source()
PUBLIC = "import torch\nscores = torch.zeros(3, 3); weights = torch.zeros(3, 3); context = torch.zeros(4)\n"
BUDGET_S = 0.2  # issue 19, property 1: the worst frame or output costs at most this

# F1: a hand-made frame whose tensor shape lists 30,000 dimensions of 10**30, ending in 0.
# 0 bytes of data; math.prod(shape) over it cost 8.9 s of trusted CPU, twice (scan, decode).
HUGE_SHAPE = r'''
import json, os, struct
shape = [10**30] * 30_000 + [0]
h = json.dumps({"body": {"__t": 0, "dtype": "bool", "shape": shape}, "blobs": [0]}).encode()
os.write(3, struct.pack(">I", len(h)) + h)
os._exit(0)
'''

# F2: every output is torch.zeros(R, 0): 0 bytes on the wire, R empty Python lists per
# .tolist(), about 20 times per grade (compare, repr, every mistake file).
EMPTY_ROWS = r'''
import torch
def causal_mask(n):
    return torch.zeros(2**19, 0, dtype=torch.bool)
def causal_attention(Q, K, V):
    z = torch.zeros(2**19, 0, dtype=Q.dtype)
    return z, z
'''
MASKS = get("causal-mask")


def _cpu_of(fn) -> tuple[object, float]:
    t0 = time.thread_time()
    out = fn()
    return out, time.thread_time() - t0


@pytest.fixture(scope="module")
def warm(grader):
    assert grader.grade(EX.id, REF).full_marks  # references and mistakes cached: only the attack is timed
    return grader


def test_f1_a_shape_of_huge_dimensions_costs_no_trusted_time(warm):
    report, cpu = _cpu_of(lambda: warm.grade(EX.id, HUGE_SHAPE))
    assert report.score == 0 and report.status == "malformed", report.status
    assert cpu < BUDGET_S, f"{cpu:.2f} s of trusted CPU"
    _, cpu = _cpu_of(lambda: warm.run_examples(EX.id, HUGE_SHAPE))
    assert cpu < BUDGET_S, f"run examples: {cpu:.2f} s of trusted CPU"


def test_f2_zero_byte_outputs_of_many_empty_rows_cost_no_trusted_time(warm):
    assert warm.grade(MASKS.id, MASKS.reference_source()).full_marks
    report, cpu = _cpu_of(lambda: warm.grade(MASKS.id, EMPTY_ROWS))
    assert report.score <= 1  # the types case only: tensors of the right dtypes, inputs unchanged
    assert cpu < BUDGET_S, f"{cpu:.2f} s of trusted CPU"
    report, cpu = _cpu_of(lambda: warm.run_examples(MASKS.id, EMPTY_ROWS))
    assert cpu < BUDGET_S, f"run examples: {cpu:.2f} s of trusted CPU"
    assert all(t.message["en"] and t.message["zh"] for t in report.tests)


def test_scanning_stops_at_a_second_sandbox_report():
    from grader.sandbox import codec, messages

    report = codec.pack({"kind": "sandbox", "level": {"summary": "strict"}})
    kinds, _, _ = messages.scan(report, 0)
    assert kinds == ["sandbox"]
    kinds, _, _ = messages.scan(report * 2, 0)
    assert "malformed" in kinds  # a forged report would keep the trusted side scanning
    kinds, _, _ = messages.scan(report * 2, len(report))
    assert "malformed" in kinds


@pytest.mark.parametrize("field,size", [("message", 1001), ("traceback", 4005), ("type", 201)])
def test_error_texts_longer_than_the_runner_writes_are_forged(field, size):
    from grader.sandbox import codec, messages

    err = {"type": "ValueError", "mro": ["ValueError"], "message": "m", "traceback": "t"}
    ok = [codec.pack({"kind": "sandbox", "level": {}}), codec.pack({"kind": "load_error", "error": err})]
    assert messages.decode(b"".join(ok), [1])
    bad = codec.pack({"kind": "load_error", "error": {**err, field: "x" * size}})
    with pytest.raises(messages.Malformed):
        messages.decode(ok[0] + bad, [1])


def test_a_squeezed_one_query_prediction_loses_points(grader):
    """Issue 18: a 0-d result stays 0-d through the sandbox and the codec, so `.squeeze()`
    (pred () for one query, attention (n,) for one key) is a shape mistake, not full marks."""
    nw = get("nadaraya-watson")
    ref = nw.reference_source()
    squeezed = ref.replace("return attention @ y_values, attention",
                           "return (attention @ y_values).squeeze(), attention.squeeze()")
    assert squeezed != ref
    assert grader.grade(nw.id, ref).full_marks
    report = grader.grade(nw.id, squeezed)
    assert report.score < report.max_score
    failed = [t for t in report.tests if not t.passed]
    assert any("shape ()" in t.message["en"] or "(1,)" in t.message["en"] for t in failed), failed
    assert not grader.run_examples(nw.id, squeezed).full_marks
