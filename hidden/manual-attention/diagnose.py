"""Diagnosis by properties for manual-attention (Part B): which keys get weight whatever the
fill value (an ignored mask gives them the weights of their own scores, an ordinary fill one
same weight per row), the axis the rows sum over, and which scale factor reproduces the weights."""

import math

import numpy as np

from grader.diagnose import (
    arr,
    constant_fill,
    dtype_of,
    first_fit,
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


def diagnose(case, records):
    step = case.steps[0]
    if step.op != "call" or step.name != "attention":
        return None
    Q, K = arr(step.args[0]), arr(step.args[1])
    got = arr(value_of(records, 0, select=1))
    if Q is None or got is None:
        return None
    d = Q.shape[-1]
    raw = Q @ np.swapaxes(K, -1, -2)  # (..., n, m)
    if got.shape != raw.shape:
        return None
    mask = step.kwargs.get("mask")
    allowed = np.ones(raw.shape, bool) if mask is None else np.broadcast_to(
        np.asarray(arr(mask), bool), raw.shape)
    right = softmax(np.where(allowed, raw / math.sqrt(d), -np.inf))
    if mask is not None and not allowed.all():
        found = unique([
            ("mask-inverted", same_support(got, ~allowed) and sums_to_one(got, -1)),
            # ignored: every key gets the weight of its own score, as without a mask
            ("mask-ignored", fits(got, softmax(raw / math.sqrt(d)))),
            # filled with an ordinary number: every hidden key of a row gets one same weight
            ("zero-fill", constant_fill(got, allowed) and proportional_on(got, right, allowed)),
            ("mask-after-softmax", masked_after_softmax(got, right)),
        ])
        if found:
            return found
        if not same_support(got, allowed):
            # over the queries, a key hidden from every query is uniform with a finite fill
            # (NaN with -inf): the hidden set then shows in columns, not rows
            finite = softmax(np.where(allowed, raw / math.sqrt(d), -1e9), axis=-2)
            return "softmax-wrong-axis" if fits(got, finite) else None
    if not np.isfinite(got).all() and np.isfinite(right).all():
        scaled = np.where(allowed, raw / math.sqrt(d), -np.inf)
        if global_max_shift(got, scaled, dtype_of(step.args[0])):
            return "global-max-shift"  # rows far below the tensor's maximum underflow: 0/0
        return "naive-softmax"
    fill = np.where(allowed, 0.0, -np.inf)
    return first_fit(got, {
        "no-scale": lambda: softmax(raw + fill),
        "scale-by-d": lambda: softmax(raw / d + fill) if d != 1 else right,
        "softmax-wrong-axis": lambda: softmax(raw / math.sqrt(d) + fill, axis=-2),
    })
