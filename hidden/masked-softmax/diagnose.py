"""Diagnosis by properties for masked-softmax: which keys get weight (whatever the fill value),
along which axis rows sum to 1, and whether large scores overflow."""

import numpy as np

from grader.diagnose import (
    arr,
    masked_after_softmax,
    same_support,
    softmax,
    sums_to_one,
    unique,
    value_of,
)


def _keep(lens, B, n, m, shift=0):
    """(B, n, m) pattern of visible keys for 1-D or 2-D lengths (``shift`` = off by that)."""
    lens = np.asarray(lens)
    if lens.ndim == 1:
        lens = np.broadcast_to(lens[:, None], (B, n))
    return np.arange(m)[None, None, :] < (lens[:, :, None] + shift)


def diagnose(case, records):
    step = case.steps[0]
    if step.get("op") != "call" or step.get("fn") != "masked_softmax":
        return None
    X = arr(step["args"][0])
    got = arr(value_of(records, 0))
    if X is None or got is None or got.shape != X.shape or X.ndim != 3:
        return None
    B, n, m = X.shape
    lens = step["args"][1]
    lens = None if lens is None else np.asarray(arr(lens), dtype=np.int64)
    keep = np.ones(X.shape, bool) if lens is None else _keep(lens, B, n, m)
    right = softmax(np.where(keep, X, -np.inf))
    if not np.isfinite(got).all() and np.isfinite(right).all():
        return "overflowing-softmax"  # inf/NaN where a stable softmax has none
    findings = [
        ("wrong-axis", sums_to_one(got, -2) and not sums_to_one(got, -1)),
        ("mask-after-softmax", masked_after_softmax(got, right)),
    ]
    if lens is not None and not keep.all():
        findings += [
            ("zero-fill", sums_to_one(got, -1) and same_support(got, np.ones_like(keep))),
            ("off-by-one", sums_to_one(got, -1) and same_support(got, _keep(lens, B, n, m, 1))),
        ]
        if lens.ndim == 2:
            row = _keep(lens[:, 0], B, n, m)
            if (row != keep).any():
                findings.append(("lens-2d-as-1d", sums_to_one(got, -1) and same_support(got, row)))
    return unique(findings)
