"""Issue 9's learner submissions, each with its expected outcome and message: no wrong answer
gets full marks, each mistake is named right, said once and charged once, in the learner's
own names."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "exercises"))

import variants_causal_mask as causal  # noqa: E402
import variants_masked_softmax as msm  # noqa: E402
import variants_multi_head_attention as mha  # noqa: E402
import variants_permutation_invariance as perm  # noqa: E402
import variants_positional_table as table  # noqa: E402

MHA = "multi-head-attention"


def _failed(report):
    return [t for t in report.tests if not t.passed]


def test_inplace_softmax_that_breaks_backward_is_not_full(grader):
    report = grader.grade(MHA, mha.einsum(**mha.INPLACE_SOFTMAX))
    assert not report.full_marks and report.mistakes() == ["breaks-backward"]
    (bad,) = _failed(report)  # the forward values are right: only training fails
    assert "in-place" in bad.message["en"] and "原地" in bad.message["zh"]
    assert report.score == report.max_score - bad.max_score


def test_numpy_forward_is_not_full_and_said_once(grader):
    report = grader.grade(MHA, mha.einsum(RETURN="self.out_proj(ctx).detach().numpy(), att.detach().numpy()"))
    assert not report.full_marks and report.mistakes() == ["wrong-return-type"]
    full = [t for t in _failed(report) if "Same mistake" not in t.message["en"]]
    assert len(full) == 1 and "numpy" in full[0].message["en"]


def test_caller_tensors_changed_in_place_are_caught(grader):
    for exercise, source in (("masked-softmax", msm.src(BODY="X[~visible] = -1e6\n    return soft(X)")),
                             ("positional-table", table.src(ADD=(
                                 "X.mul_(math.sqrt(d))\n    return X.add_(positional_encoding(T, d).to(X.dtype))")))):
        report = grader.grade(exercise, source)
        assert report.mistakes() == ["changes-input"], exercise
        (bad,) = _failed(report)
        assert "in place" in bad.message["en"] and bad.max_score == 1


def test_numpy_table_in_exercise_2_is_not_full(grader):
    report = grader.grade("permutation-invariance", perm.src(RETURN="P.astype('float32')"))
    assert report.mistakes() == ["wrong-return-type"] and len(_failed(report)) == 1


def test_allclose_with_default_rtol_is_accepted(grader):
    """Decision: `torch.allclose(a, b, atol=atol)` (the hint's own answer) is right; the
    hidden layers are scaled so that the default rtol never changes an answer."""
    assert grader.grade("permutation-invariance", perm.src()).full_marks


def test_tensor_bool_is_one_mistake_charged_once(grader):
    report = grader.grade("permutation-invariance", perm.src(COMPARE="(b - a[:, p]).abs().max() <= atol"))
    (bad,) = _failed(report)
    assert report.score == report.max_score - 1 and report.mistakes() == ["tensor-bool"]
    assert "bool(" in bad.message["en"] and "bool(" in bad.message["zh"]


def test_scale_by_d_k_is_not_called_sqrt_embed_dim(grader):
    report = grader.grade(MHA, mha.einsum(SCALE="/ self.head_dim"))
    assert report.mistakes() == ["scale-by-d-k"]
    assert "√embed_dim" not in report.to_json()


def test_inverted_mask_with_a_finite_fill_is_named(grader):
    src = causal.src(MASK="torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1)",
                     BODY="w = torch.softmax(s.masked_fill(allowed, -1e9), dim=-1)")
    report = grader.grade("causal-mask", src)
    assert report.mistakes() == ["inverted-mask"]
    assert "largest difference" not in report.to_json()


def test_float64_table_costs_one_point_not_nine(grader):
    report = grader.grade("positional-table", table.src(
        TABLE="torch.from_numpy(table)", ADD="return (X * d ** 0.5 + positional_encoding(T, d)).to(X.dtype)"))
    assert report.score == report.max_score - 1
    (bad,) = _failed(report)
    assert "float32" in bad.message["en"] and "keep the dtype of the inputs" not in bad.message["en"]


def test_messages_use_the_learners_names_not_the_graders(grader):
    src = mha.einsum(RETURN="self.out_proj(ctx) + undefined_name, att")
    report = grader.grade(MHA, src)
    texts = [t.message["en"] for t in _failed(report)]
    assert any("`SimpleMultiHeadAttention.forward` raised NameError" in m for m in texts), texts
    assert not any("`m`" in m or "`f`" in m or "`layer`" in m for m in texts)


def test_one_message_per_distinct_mistake(grader):
    report = grader.grade(MHA, mha.einsum(SCALE=""))
    failed = _failed(report)
    assert len(failed) >= 3 and report.mistakes() == ["no-scale"]
    assert sum("Same mistake as in" in t.message["en"] for t in failed) == len(failed) - 1
    assert failed[0].message["en"].startswith("Scores are not scaled")


def test_hidden_value_messages_say_where_not_how_much():
    import numpy as np

    from grader.feedback.compare import compare
    from grader.typed import Check

    spec = Check.from_dict({"kind": "allclose", "label": "weights", "rtol": 1e-5, "atol": 1e-6})
    want = np.array([[1.0, 0.0], [0.5, 0.5]])
    leak = compare(spec, np.array([[1.0, 0.1], [0.5, 0.5]]), want, hidden=True)["en"]
    assert "should be hidden" in leak and "0.1" not in leak
    rows = compare(spec, np.array([[0.7, 0.0], [0.5, 0.5]]), want, hidden=True)["en"]
    assert "rows where the mask hides keys" in rows
    nan = compare(spec, np.array([[np.nan, np.nan], [0.5, 0.5]]), want, hidden=True)["en"]
    assert "NaN where the right values are all finite" in nan  # the cause is observe.py's, from the inputs
    shown = compare(spec, np.array([[0.9, 0.1], [0.5, 0.5]]), want, hidden=False)["en"]
    assert "largest difference 0.1" in shown  # public examples may say everything


MSM_CRASH_ON_2D = '''
import torch

def masked_softmax(X, valid_lens=None):
    if valid_lens is None:
        return torch.softmax(X, dim=-1)
    B, n, m = X.shape
    for b in range(B):
        X[b, :, int(valid_lens[b]):] = 0
    return torch.softmax(X, dim=-1)
'''


def test_a_case_that_raised_shows_only_the_crash_never_a_fixed_hint(grader):
    """Walk-through issue 2: this uses torch.softmax but crashes on 2-D valid lengths; the
    large-scores case must say it raised, not 'use torch.softmax or subtract the row max'."""
    report = grader.grade("masked-softmax", MSM_CRASH_ON_2D)
    raised = [t for t in _failed(report) if "raised" in t.message["en"] or "Same problem" in t.message["en"]]
    large = next(t for t in report.tests if t.name.startswith("large scores"))
    assert not large.passed and large in raised
    assert any("raised" in t.message["en"] and "抛出" in t.message["zh"] for t in raised)
    for t in raised:  # the crash only: no fixed hint, no mistake named on a case that raised
        assert "row maximum" not in t.message["en"] and "最大值" not in t.message["zh"], t.name
        assert t.mistake is None, t.name


# The names each exercise's submission defines: a submission that raises in every one of them
# (test_every_exercise_hint_is_absent_when_the_case_raised).
DEFINES = {
    "add-norm": ["AddNorm"],
    "additive-attention": ["additive_scores", "additive_attention"],
    "causal-mask": ["causal_mask", "causal_attention"],
    "cross-attention": ["cross_attention"],
    "manual-attention": ["scores", "weights", "context", "attention"],
    "masked-softmax": ["masked_softmax"],
    "multi-head-attention": ["SimpleMultiHeadAttention"],
    "nadaraya-watson": ["nw_predict"],
    "permutation-invariance": ["is_permutation_equivariant", "sinusoidal_positional_encoding"],
    "position-wise-ffn": ["position_wise_ffn"],
    "positional-table": ["positional_encoding", "add_positions"],
}


def test_every_exercise_hint_is_absent_when_the_case_raised(grader):
    """The same property on every exercise: code that raises in every function gets crash
    messages only, never a case's fixed hint or a mistake's explanation."""
    from grader.exercises import all_exercises
    from grader.paths import deployment_seed

    hinted = 0
    for ex_id, ex in all_exercises().items():
        raising = "".join(
            f"class {n}:\n    def __init__(self, *a, **k):\n        raise RuntimeError('x')\n"
            if n[:1].isupper() else f"def {n}(*a, **k):\n    raise RuntimeError('x')\n"
            for n in DEFINES[ex_id])
        report = grader.grade(ex_id, raising)
        hints = {c.name: c.hint for c in ex.hidden_cases(deployment_seed()) if c.hint}
        crashed = [t for t in report.tests if not t.passed and t.details]  # the code raised
        for t in crashed:
            assert t.mistake is None, (ex_id, t.name)
            hint = hints.get(t.name)
            if hint:
                hinted += 1
                assert hint["en"] not in t.message["en"] and hint["zh"] not in t.message["zh"]
    assert hinted  # the property was exercised on real hinted cases


def test_a_stability_hint_only_where_the_output_is_not_finite(grader):
    """Finite but wrong values on the large-scores case (clamped scores) are not an overflow:
    the hint 'use torch.softmax or subtract the row maximum' would name a wrong cause."""
    clamped = msm.src(BODY="return SOFTMAX(torch.where(visible, X, torch.full_like(X, -1e9)).clamp(-30, 30))")
    report = grader.grade("masked-softmax", clamped)
    large = [t for t in report.tests if t.name.startswith("large scores")]
    assert large and not all(t.passed for t in large)
    for t in report.tests:
        assert "row maximum" not in t.message["en"] and "最大值" not in t.message["zh"], t.name


def test_the_hint_is_kept_for_nan_or_inf_outputs():
    import numpy as np

    from grader.feedback import explain
    from grader.report import TestResult
    from grader.spec import Case, call, check
    from grader.typed import TestCase, records_of

    case = TestCase.of(Case("large", 1.0, [call("f", check=check("allclose"))],
                            hint={"en": "H", "zh": "提示"}))
    for value, shown in ((np.array([[np.nan, 0.5]]), True), ((np.array([np.inf]), 1), True),
                         (np.array([[0.2, 0.8]]), False), (float("nan"), True)):
        result = TestResult("large", 0.0, 1.0, False, {"en": "wrong", "zh": "错"})
        explain.add_hint(case, result, records_of([{"value": value}]))
        assert ("H" in result.message["en"]) is shown and ("提示" in result.message["zh"]) is shown
    crashed = TestResult("large", 0.0, 1.0, False, {"en": "raised", "zh": "抛出"})
    explain.add_hint(case, crashed, records_of([{"error": {"type": "ValueError", "message": "",
                                                            "mro": [], "traceback": ""}}]))
    assert crashed.message["en"] == "raised"


def test_a_matrix_product_with_unequal_inner_sizes_is_told_with_them_when_they_are_the_inputs():
    """Exceptions explained (issue 18): the two inner sizes of a failed `@`, said only when both
    are sizes of the case's own inputs (a learner-chosen number could spell hidden data)."""
    from grader.feedback.raised import error_text
    from grader.typed import ErrorInfo

    err = ErrorInfo("RuntimeError", ("RuntimeError",), "mat1 and mat2 shapes cannot be multiplied (8x3 and 5x8)", "")
    told = error_text(err, "additive_scores", frozenset({3, 5, 2}))["en"]
    assert "last axis has size 3, the right operand's second-to-last 5" in told
    assert "size 3" not in error_text(err, "additive_scores", frozenset({3}))["en"]
    batched = ErrorInfo("RuntimeError", ("RuntimeError",),
                        "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [2, 5].", "")
    assert "size 3, the right operand's second-to-last 5" in error_text(batched, "f", frozenset({2, 3, 5}))["en"]
