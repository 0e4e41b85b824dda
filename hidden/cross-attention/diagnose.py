"""Diagnosis by properties for cross-attention: a softmax over the decoder queries, or a
padding mask laid on the queries, whatever the fill value (-inf makes fully blocked rows or
columns NaN where the mistake files' finite fill makes them uniform)."""

import math

import numpy as np

from grader.diagnose import arr, first_call, fits, softmax, unique, value_of


def _blocked_rows_empty(got, rows):
    """Every query row the mask blocks is NaN (a fill of -inf) or uniform (a finite fill)."""
    blocked = got[~rows]  # (k, m)
    nan = np.isnan(blocked).all(axis=-1)
    uniform = np.isclose(blocked, 1.0 / got.shape[-1], atol=1e-5).all(axis=-1)
    return bool((nan | uniform).all())


def diagnose(case, records):
    # the types case starts with a lookup; its first call by name is on fresh copies
    i, step = first_call(case, "cross_attention")
    got = None if step is None else arr(value_of(records, i, select=1))
    if got is None or len(step.args) < 5:
        return None
    dec, enc, W_q, W_k = (arr(a) for a in step.args[:4])
    if any(a is None for a in (dec, enc, W_q, W_k)) or dec.ndim != 3 or enc.ndim != 3:
        return None
    B, n, m = dec.shape[0], dec.shape[1], enc.shape[1]
    if got.shape != (B, n, m):
        return None  # keys from the decoder or roles swapped: the mistake files name those
    scores = (dec @ W_q) @ np.swapaxes(enc @ W_k, -1, -2) / math.sqrt(W_q.shape[1])  # (B, n, m)
    lens = step.kwargs.get("enc_valid_lens")
    lens = None if lens is None else np.asarray(arr(lens), dtype=np.int64)
    keys = np.ones((B, 1, m), bool) if lens is None else \
        np.arange(m)[None, None, :] < lens[:, None, None]  # (B, 1, m): real encoder tokens
    real = np.broadcast_to(keys, got.shape)
    # over the queries: the real keys' columns are softmaxes down the query axis; the padding
    # columns are all blocked, so NaN or uniform, and say nothing
    findings = [("softmax-over-queries", n > 1 and fits(got[real], softmax(scores, axis=1)[real]))]
    if lens is not None:
        rows = np.broadcast_to(np.arange(n)[None, :, None] < lens[:, None, None], got.shape)
        if not rows.all() and not keys.all():
            # the rows the lengths leave alone see every key; the others are fully blocked
            findings.append(("mask-on-queries", fits(got[rows], softmax(scores)[rows])
                             and _blocked_rows_empty(got, rows[..., 0])))
    return unique(findings)
