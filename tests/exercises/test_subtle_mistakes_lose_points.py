"""The red team's own submissions of 2026-11-30 that found grading gaps, kept verbatim:
float64 results for float32 inputs (manual-attention, causal-mask), an `attention` that divides
the caller's Q in place before Part A is worked out from it (manual-attention), and a fill of
-inf that turns a query with valid length 0 into NaN (masked-softmax). Each used to score full
marks or be named after the wrong cause."""

MA_DOUBLE = '''import math, torch
import numpy as np
Q = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
K = Q.clone()
V = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]])

def attention(Q, K, V, mask=None):
    s = Q.double() @ K.double().transpose(-2, -1) / math.sqrt(Q.shape[-1])
    if mask is not None: s = s.masked_fill(~mask, float("-inf"))
    w = torch.softmax(s, dim=-1)
    return w @ V.double(), w

context_all, weights = attention(Q, K, V)
scores = Q @ K.T / 2
context = context_all[0]
'''

MA_INPLACE_Q = '''import math, torch
import numpy as np
Q = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
K = Q.clone()
V = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]])

def attention(Q, K, V, mask=None):
    Q /= math.sqrt(Q.shape[-1])
    s = Q @ K.transpose(-2, -1)
    if mask is not None: s = s.masked_fill(~mask, float("-inf"))
    w = torch.softmax(s, dim=-1)
    return w @ V, w

context_all, weights = attention(Q, K, V)
scores = Q @ K.T / 2
context = context_all[0]
'''

CM_DOUBLE = '''"""Reference solution for causal-mask: lower-triangular boolean mask, masked before softmax."""

import math

import torch


def causal_mask(n):
    """Boolean (n, n) mask, True where query i may attend to key j (j <= i)."""
    if n < 1:
        raise ValueError(f"a causal mask needs at least one position, got n={n}")
    return torch.ones(n, n, dtype=torch.bool).tril()


def causal_attention(Q, K, V):
    """Return (output (..., n, d_v), weights (..., n, n)) of causally masked self-attention."""
    n = Q.shape[-2]
    if K.shape[-2] != n or V.shape[-2] != n:
        raise ValueError("Q, K and V must have the same sequence length (axis -2)")
    if K.shape[-1] != Q.shape[-1]:
        raise ValueError("Q and K must have the same last dimension d")
    Q, K, V = Q.double(), K.double(), V.double()
    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])  # (..., n, n)
    allowed = causal_mask(n)  # (n, n), broadcasts over the leading axes
    weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
    return weights @ V, weights  # (..., n, d_v), (..., n, n)
'''

MS_NEG_INF = '''"""Reference solution for masked-softmax: D2L valid lengths, hidden keys filled with -1e6."""

import torch

FILL = -1e6  # large negative, so exp() of a hidden score is 0 next to any real score


def masked_softmax(X, valid_lens=None):
    """Softmax over the last axis of X (B, n, m), keys j >= valid length get weight 0."""
    if not isinstance(X, torch.Tensor) or X.dim() != 3:
        raise ValueError("X must be a 3-D tensor of shape (batch, queries, keys)")
    if valid_lens is None:
        return torch.softmax(X, dim=-1)
    B, n, m = X.shape
    lens = torch.as_tensor(valid_lens)
    if lens.dim() == 1:
        if lens.shape[0] != B:
            raise ValueError(f"1-D valid_lens needs one length per batch row ({B}), got {lens.shape[0]}")
        lens = lens[:, None].expand(B, n)  # (B, n): every query of a row shares its length
    elif lens.dim() == 2:
        if tuple(lens.shape) != (B, n):
            raise ValueError(f"2-D valid_lens must have shape (B, n) = ({B}, {n}), got {tuple(lens.shape)}")
    else:
        raise ValueError("valid_lens must be None, 1-D (B,) or 2-D (B, n)")
    keys = torch.arange(m)  # (m,)
    keep = keys[None, None, :] < lens[:, :, None]  # (B, n, m)
    return torch.softmax(X.masked_fill(~keep, float('-inf')), dim=-1)
'''


def _failed(rep):
    return [t for t in rep.tests if not t.passed]


def _assert_dtype_named(rep):
    assert not rep.full_marks
    failed = _failed(rep)
    assert [t.mistake for t in failed] == ["wrong-return-type"], [(t.name, t.mistake) for t in failed]
    assert "float32" in failed[0].message["en"] and "float64" in failed[0].message["en"]
    assert "float32" in failed[0].message["zh"] and "float64" in failed[0].message["zh"]


def test_manual_attention_float64_for_float32_inputs_loses_the_dtype_point(grader):
    rep = grader.grade("manual-attention", MA_DOUBLE)
    assert (rep.score, rep.max_score) == (11, 12)
    _assert_dtype_named(rep)


def test_causal_mask_float64_for_float32_inputs_loses_the_dtype_point(grader):
    rep = grader.grade("causal-mask", CM_DOUBLE)
    assert (rep.score, rep.max_score) == (12, 13)  # one point of 13 (13 since the d-mismatch case)
    _assert_dtype_named(rep)


def test_in_place_q_is_never_called_a_d_k_scale(grader):
    """Part A's scores equal Q·Kᵀ/4 because attention(Q, K, V) halved the module-level Q:
    the feedback there names the in-place change, never a plain 'divided by d_k'."""
    rep = grader.grade("manual-attention", MA_INPLACE_Q)
    assert not rep.full_marks
    assert "scale-by-d" not in rep.mistakes()
    # One cause, named alone (manual-attention's changes-input: a mutant
    # that changes its inputs in place, safe since trusted runs copy each step's inputs)
    assert set(rep.mistakes()) == {"changes-input"}
    for t in _failed(rep):
        if "Same mistake" not in t.message["en"]:
            assert "in place" in t.message["en"] and "原地" in t.message["zh"], (t.name, t.message)
    scores = next(t for t in rep.tests if t.name == "Part A: scores")
    assert not scores.passed and scores.mistake == "changes-input"
    assert "instead of √d_k" not in scores.message["en"] and "Either" not in scores.message["en"]


def test_neg_inf_fill_is_caught_on_a_query_with_valid_length_0(grader):
    rep = grader.grade("masked-softmax", MS_NEG_INF)
    assert (rep.score, rep.max_score) == (15, 16)
    failed = _failed(rep)
    assert [(t.name, t.mistake) for t in failed] == [
        ("valid length 0 (a query that sees no key), large scores, float32", "length-zero-nan")]
    assert "valid length is 0" in failed[0].message["en"] and "-1e6" in failed[0].message["en"]
    assert "有效长度为 0" in failed[0].message["zh"] and "-1e6" in failed[0].message["zh"]
    examples = grader.run_examples("masked-softmax", MS_NEG_INF)
    assert not examples.full_marks  # the public example with a length of 0 shows it too
