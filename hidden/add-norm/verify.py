"""Verifiers for add-norm: a dropout's output at 0 < p < 1, judged for any choice of dropped
entries (each learner's dropout draws its own), but only with the right scale.

In training mode AddNorm(d, p) answers LayerNorm(X + M * Y / (1 - p)) for a mask M of kept
entries. Per token (d features, here 6) every mask is tried: the output must equal one of
them, with a share of dropped entries near p (the case uses p = 1/4 over 384 entries: a
right dropout drops 96 on average, sd 8.5, and leaves the band 0.10-0.45 with probability
below 1e-10, while keeping with probability p, a swapped comparison, drops 3/4). An output that
fits only with kept entries unscaled is the missing 1/(1 - p); one that fits only with no
entry dropped is a dropout that never drops (a scaling, or the eval path).
"""

import itertools

import numpy as np

from grader.diagnose import arr

EPS = 1e-5  # nn.LayerNorm's


def _layer_norm(z, w, b):
    mu = z.mean(-1, keepdims=True)
    var = ((z - mu) ** 2).mean(-1, keepdims=True)
    return (z - mu) / np.sqrt(var + EPS) * w + b


def _fits(out, X, Y, w, b, scale):
    """(every token fits some mask, fraction of entries dropped) for kept entries * scale."""
    d = X.shape[-1]
    masks = np.array(list(itertools.product((0.0, 1.0), repeat=d)))  # (2^d, d)
    tokens_x, tokens_y, tokens_o = X.reshape(-1, d), Y.reshape(-1, d), out.reshape(-1, d)
    dropped = 0
    for x, y, o in zip(tokens_x, tokens_y, tokens_o, strict=True):
        candidates = _layer_norm(x[None, :] + masks * y[None, :] * scale, w, b)  # (2^d, d)
        hit = np.flatnonzero(np.isclose(candidates, o[None, :], rtol=1e-6, atol=1e-7).all(-1))
        if hit.size == 0:
            return False, 0.0
        dropped += d - masks[hit[0]].sum()
    return True, dropped / out.size


def dropout(case, got, i):
    """"ok", "no-rescale", "never-drops" or "wrong" for the call at step ``i``."""
    step = case.steps[i]
    X, Y, out = arr(step.args[0]), arr(step.args[1]), arr(got[i].value)
    if X is None or Y is None or out is None or out.shape != X.shape or not np.isfinite(out).all():
        return "wrong"
    made = next(s for s in case.steps if s.op == "new")
    p = float(made.args[1])
    params = next(s for s in case.steps if s.op == "set_params").params
    w, b = arr(params["ln.weight"]), arr(params["ln.bias"])
    ok, share = _fits(out, X, Y, w, b, 1.0 / (1.0 - p))
    if ok and p - 0.15 <= share <= p + 0.2:
        return "ok"
    if ok and share == 0.0:
        return "never-drops"
    unscaled, share = _fits(out, X, Y, w, b, 1.0)
    if unscaled and share > 0.0:
        return "no-rescale"
    if unscaled or _fits(out, X, Y, w, b, 1.0 - p)[0]:
        return "never-drops"
    return "wrong"


VERIFY = {"dropout": dropout}
