"""Stage observations on values (grader/feedback/observe_values.py): each says a property of the
learner's own values that the evidence shows, and nothing when the evidence does not."""

from __future__ import annotations

import numpy as np

from grader.feedback.observe_values import constant_finding, nan_finding, transposed_finding


def _softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


RNG = np.random.default_rng(0)
S = RNG.normal(size=(2, 4, 4))


def test_weights_of_the_transposed_scores_are_told_and_right_ones_are_not():
    want = _softmax(S)
    en, zh = transposed_finding("weights", _softmax(np.swapaxes(S, -1, -2)), want, weights=True)
    assert "softmax of the transposed scores" in en and "Q·Kᵀ" in zh
    assert transposed_finding("weights", want, want, weights=True) is None
    assert transposed_finding("weights", _softmax(2 * S), want, weights=True) is None  # a scale


def test_symmetric_scores_never_get_a_transpose_finding():
    sym = S + np.swapaxes(S, -1, -2)
    assert transposed_finding("weights", _softmax(2 * sym), _softmax(sym), weights=True) is None


def test_transposed_scores_are_told():
    en, _ = transposed_finding("scores", np.swapaxes(S, -1, -2), S, weights=False)
    assert "transpose of the right one" in en


def test_nan_exactly_on_rows_with_every_key_hidden():
    hidden = np.zeros((1, 3, 4), bool)
    hidden[0, 1] = True  # query 1 sees no key
    want = _softmax(np.where(hidden, -1e6, S[:1, :3]))
    mine = want.copy()
    mine[0, 1] = np.nan
    en, zh = nan_finding("weights", mine, want, hidden)
    assert "exactly in the 1 row whose keys are all hidden and right in every other row" in en
    assert "uniform (1/m)" in en and "−1e6" in zh and "0/0 is NaN" in en


def test_nan_in_rows_that_see_keys_names_no_mask():
    want = _softmax(S)
    mine = want.copy()
    mine[1, 2] = np.nan
    en, _ = nan_finding("weights", mine, want, np.zeros(S.shape, bool))
    assert "NaN or inf in 1 of 8 rows" in en and "right in every other row" in en
    assert "hidden" not in en and "mask" not in en


def test_a_constant_output_is_told_and_a_constant_right_one_is_not():
    assert "every entry of `scores` is 0" in constant_finding("scores", np.zeros((3, 3)), S[0, :3, :3])[0]
    assert constant_finding("weights", np.full((2, 2), 0.5), np.full((2, 2), 0.5)) is None
    assert constant_finding("x", np.zeros(1), np.ones(1)) is None


def test_a_factor_of_one_over_an_input_length_is_told_as_such():
    """nadaraya-watson__12 of the 2026-12-03 blind set: a mean over the keys where the sum is
    due gives pred / m; the factor is told as 1/m when m is the one input length that fits."""
    import torch

    from grader.feedback.observe_values import values_finding
    from grader.spec import Case, call, check
    from grader.typed import TestCase

    x = torch.zeros(12)
    case = TestCase.of(Case("t", 1.0, [call("nw_predict", torch.zeros(6), x, x, check=check(label="pred"))]))
    want = RNG.normal(size=6) + 3
    en, zh = values_finding("pred", want / 12, want, case, 0, "nadaraya-watson")
    assert "0.0833 = 1/12 times the right one (12 is a length" in en and "1/12" in zh
    assert "= 1/" not in values_finding("pred", want * 0.37, want, case, 0, "nadaraya-watson")[0]
