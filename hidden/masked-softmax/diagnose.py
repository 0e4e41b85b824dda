"""Diagnosis by properties for masked-softmax: which keys get weight (whatever the fill value),
along which axis rows sum to 1, whether large scores overflow, and whether a query with valid
length 0 (no key visible) comes out NaN (a fill of -inf) instead of uniform (the fill of -1e6)."""

import numpy as np

from grader.diagnose import (
    arr,
    constant_fill,
    dtype_of,
    fits,
    global_max_shift,
    masked_after_softmax,
    proportional_on,
    same_support,
    softmax,
    sums_to_one,
    unique,
    value_of,
)

FILL = -1e6  # the statement's fill for hidden keys


def _keep(lens, B, n, m, shift=0):
    """(B, n, m) pattern of visible keys for 1-D or 2-D lengths (``shift`` = off by that)."""
    lens = np.asarray(lens)
    if lens.ndim == 1:
        lens = np.broadcast_to(lens[:, None], (B, n))
    return np.arange(m)[None, None, :] < (lens[:, :, None] + shift)


def _lengths_of_other_rows(got, X, lens, keep):
    """Every query row uses one of the given valid lengths, but not always its own: the right
    lengths in the wrong rows (a 1-D valid_lens repeated with ``repeat`` instead of
    ``repeat_interleave``, an arange over the queries). Needs a row that could fit no other way."""
    B, n, m = X.shape
    choices = sorted({int(v) for v in np.asarray(lens).reshape(-1) if int(v) >= 1})
    if len(choices) < 2:
        return False
    moved = False
    for b in range(B):
        for q in range(n):
            fitting = [v for v in choices
                       if fits(got[b, q], softmax(np.where(np.arange(m) < v, X[b, q], FILL)))]
            if not fitting:
                return False
            own = int(keep[b, q].sum())
            moved |= own not in fitting
    return moved


def diagnose(case, records):
    step = case.steps[0]
    if step.op != "call" or step.name != "masked_softmax":
        return None
    X = arr(step.args[0])
    got = arr(value_of(records, 0))
    if X is None or got is None or got.shape != X.shape or X.ndim != 3:
        return None
    B, n, m = X.shape
    lens = step.args[1]
    lens = None if lens is None else np.asarray(arr(lens), dtype=np.int64)
    keep = np.ones(X.shape, bool) if lens is None else _keep(lens, B, n, m)
    right = softmax(np.where(keep, X, FILL))  # a query with valid length 0: uniform weights
    if not np.isfinite(got).all() and np.isfinite(right).all():
        empty = ~keep.any(axis=-1)  # (B, n): queries that may see no key
        bad = ~np.isfinite(got).all(axis=-1)  # (B, n): queries with NaN/inf weights
        if empty.any() and (bad == empty).all() and fits(got[~empty], right[~empty]):
            return "length-zero-nan"  # NaN exactly on the queries with valid length 0
        if global_max_shift(got, np.where(keep, X, FILL), dtype_of(step.args[0])):
            return "global-max-shift"  # rows far below the tensor's maximum underflow: 0/0
        return "overflowing-softmax"  # inf/NaN where a stable softmax has none
    findings = [
        ("wrong-axis", sums_to_one(got, -2) and not sums_to_one(got, -1)),
        ("mask-after-softmax", masked_after_softmax(got, right)),
    ]
    if lens is not None and not keep.all():
        findings += [
            # an ordinary fill: every hidden key of a row gets one same weight (an ignored
            # valid_lens would give each the weight of its own score)
            ("zero-fill", constant_fill(got, keep) and proportional_on(got, right, keep)),
            ("off-by-one", sums_to_one(got, -1) and same_support(got, _keep(lens, B, n, m, 1))),
        ]
        L = np.broadcast_to(lens[:, None], (B, n)) if lens.ndim == 1 else lens
        on_queries = np.broadcast_to(np.arange(n)[None, :, None] < L[:, :, None], X.shape)
        if (on_queries != keep).any():
            findings.append(("lens-on-queries", fits(got, softmax(np.where(on_queries, X, FILL)))))
        findings.append(("lens-wrong-rows", sums_to_one(got, -1)
                         and _lengths_of_other_rows(got, X, lens, keep)))
        if lens.ndim == 2:
            row = _keep(lens[:, 0], B, n, m)
            if (row != keep).any():
                findings.append(("lens-2d-as-1d", sums_to_one(got, -1) and same_support(got, row)))
    return unique(findings)
