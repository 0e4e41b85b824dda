"""Learner-style submissions for permutation-invariance (exercise 2), unlike the mistake files."""

EQ = '''
import math
import numpy as np
import torch


def _first(out):
    FIRST


def is_permutation_equivariant(layer, x, perm, atol=1e-5):
    p = torch.as_tensor(perm).long()
    a = _first(layer(x))
    b = _first(layER_PERM)
    return COMPARE
'''

TABLE = '''

def sinusoidal_positional_encoding(seq_len, d_model):
    ODD
    P = np.zeros((seq_len, d_model))
    for pos in range(seq_len):
        for i in range(0, d_model, 2):
            angle = pos / 10000 ** (EXPONENT)
            P[pos, SIN_COL] = math.sin(angle)
            P[pos, COS_COL] = math.cos(angle)
    return RETURN
'''

EQ_DEFAULTS = {
    "FIRST": "return out[0] if isinstance(out, (tuple, list)) else out",
    "layER_PERM": "layer(x[:, p])",
    "COMPARE": "bool(torch.allclose(b, a[:, p], atol=atol))",
}
TABLE_DEFAULTS = {
    "ODD": "if d_model % 2 == 1:\n        raise ValueError('d_model must be even')",
    "EXPONENT": "i / d_model",
    "SIN_COL": "i",
    "COS_COL": "i + 1",
    "RETURN": "torch.tensor(P, dtype=torch.float32)",
}


def src(**changes: str) -> str:
    text = EQ + TABLE
    for key, value in {**EQ_DEFAULTS, **TABLE_DEFAULTS, **changes}.items():
        text = text.replace(key, value)
    return text


VARIANTS = [
    ("allclose with atol only (default rtol), loops for the table", None, src()),
    ("rtol=0 and a vectorised table", None, src().replace(
        "bool(torch.allclose(b, a[:, p], atol=atol))",
        "bool(torch.allclose(b, a.index_select(1, p), rtol=0, atol=atol))")),
    ("max abs difference as a 0-d tensor", "tensor-bool",
     src(COMPARE="(b - a[:, p]).abs().max() <= atol")),
    ("torch.all of a comparison", "tensor-bool",
     src(COMPARE="torch.all(torch.isclose(b, a[:, p], rtol=0, atol=atol))")),
    ("compared with layer(x) directly", "no-permute-back", src(COMPARE="bool(torch.allclose(b, a, atol=atol))")),
    ("max difference to the unpermuted output", "no-permute-back",
     src(COMPARE="float((b - a).abs().max()) <= atol")),
    ("inverse permutation built by a loop", "inverse-permutation",
     src(COMPARE="bool(torch.allclose(b, a[:, [list(p.tolist()).index(j) for j in range(len(p))]], atol=atol))")),
    ("permuting the permuted output back", "inverse-permutation",
     src(COMPARE="bool(torch.allclose(b[:, p], a, atol=atol))")),
    ("torch.equal", "no-tolerance", src(COMPARE="torch.equal(b, a[:, p])")),
    ("== and .all().item()", "no-tolerance", src(COMPARE="bool((b == a[:, p]).all().item())")),
    ("fixed threshold 1e-5 by hand", "atol-ignored", src(COMPARE="float((b - a[:, p]).abs().max()) < 1e-5")),
    ("allclose with atol=1e-4 written in", "atol-ignored",
     src(COMPARE="bool(torch.allclose(b, a[:, p], atol=1e-4))")),
    ("no tuple handling", "tuple-not-handled", src(FIRST="return out")),
    ("tuple handled only for lists", "tuple-not-handled",
     src(FIRST="return out[0] if isinstance(out, list) else out")),
    ("cos in even columns (loop)", "sin-cos-swapped", src(SIN_COL="i + 1", COS_COL="i")),
    ("cos first with torch.stack", "sin-cos-swapped", src(RETURN=(
        "torch.stack([torch.tensor(P[:, 1::2]), torch.tensor(P[:, 0::2])], dim=-1)"
        ".reshape(seq_len, d_model).float()"))),
    ("exponent uses 2*i with i already even", "wrong-frequency", src(EXPONENT="(2 * i) / d_model")),
    ("frequency 1/10000^(i/d) per column pair index doubled", "wrong-frequency",
     src(EXPONENT="(i + i) / d_model")),
    ("sines then cosines in two halves", "halves-not-interleaved", src(RETURN=(
        "torch.cat([torch.tensor(P[:, 0::2]), torch.tensor(P[:, 1::2])], dim=1).float()"))),
    ("two halves with torch.cat of sin and cos", "halves-not-interleaved", src(RETURN=(
        "torch.cat([torch.tensor(P)[:, ::2], torch.tensor(P)[:, 1::2]], -1).to(torch.float32)"))),
    ("assert instead of ValueError", "no-odd-check", src(ODD="assert d_model % 2 == 0")),
    ("no check at all", "no-odd-check", src(ODD="pass")),
    ("table returned as numpy", "wrong-return-type", src(RETURN="P.astype('float32')")),
    ("table left in float64", "wrong-return-type", src(RETURN="torch.from_numpy(P)")),
]

VARIANTS += [
    ("ten times the caller's atol", "atol-ignored", src(COMPARE="bool(torch.allclose(b, a[:, p], rtol=0, atol=10 * atol))")),
]

