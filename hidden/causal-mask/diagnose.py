"""Diagnosis by properties for causal-mask: which keys get weight (whatever the fill value
and however the mask was built), whether rows still sum to 1, and which scale fits."""

import math

import numpy as np

from grader.diagnose import (
    arr,
    fits,
    masked_after_softmax,
    same_support,
    softmax,
    sums_to_one,
    unique,
    value_of,
)


def diagnose(case, records):
    step = case.steps[0]
    if step.op != "call" or step.name != "causal_attention":
        return None
    Q, K = arr(step.args[0]), arr(step.args[1])
    got = arr(value_of(records, 0, select=1))
    if Q is None or got is None or got.shape[-2:] != (Q.shape[-2], Q.shape[-2]):
        return None
    n, d = Q.shape[-2], Q.shape[-1]
    scores = Q @ np.swapaxes(K, -1, -2)  # (..., n, n)
    lower = np.tril(np.ones((n, n), bool))
    right = softmax(np.where(lower, scores / math.sqrt(d), -np.inf))
    if same_support(got, lower) and sums_to_one(got, -1):
        return "no-scale" if fits(got, softmax(np.where(lower, scores, -np.inf))) else None
    patterns = {"inverted-mask": np.triu(np.ones((n, n), bool), 1),
                "upper-triangle": np.triu(np.ones((n, n), bool)),
                "diagonal-excluded": np.tril(np.ones((n, n), bool), -1)}
    return unique([(name, same_support(got, allowed) or _same_weights(got, scores, d, allowed))
                   for name, allowed in patterns.items()]
                  + [("mask-after-softmax", masked_after_softmax(got, right))])


def _same_weights(got, scores, d, allowed):
    """The learner's weights are the softmax over ``allowed`` (a fully blocked row uniform, as
    with any finite fill, or NaN, as with -inf): with large scores most allowed weights
    underflow, so the support alone cannot show the hidden set."""
    live = allowed.any(axis=-1)
    return bool(live.any()) and fits(got[..., live, :], softmax(
        np.where(allowed, scores / math.sqrt(d), -1e30))[..., live, :])
