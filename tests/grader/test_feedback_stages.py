"""Issue 18: name only what the evidence singles out; otherwise say where the values first
differ and which property breaks there, on learner-style code written from the statements."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "exercises"))

import variants_additive_attention as add  # noqa: E402
import variants_manual_attention as manual  # noqa: E402
import variants_masked_softmax as msm  # noqa: E402
import variants_multi_head_attention as mha  # noqa: E402
import variants_nadaraya_watson as nw  # noqa: E402
import variants_permutation_invariance as perm  # noqa: E402

MHA, EQ, ADD = "multi-head-attention", "permutation-invariance", "additive-attention"
PER_TERM_TANH = add.src().replace("feat = torch.tanh(a.unsqueeze(2) + b.unsqueeze(1))",
                                  "feat = torch.tanh(a).unsqueeze(2) + torch.tanh(b).unsqueeze(1)")

# (exercise, source, words every unnamed failed value case's message must carry somewhere)
OBSERVED = {
    "scaling after the softmax": (MHA, mha.einsum(SCALE="", SOFTMAX="F.softmax(att, dim=-1) / math.sqrt(self.head_dim)"),
                                  "should sum to 1 over the keys; yours sum to 0."),
    "a hard-coded 0.5": (MHA, mha.einsum(SCALE="* 0.5"), "divided by 2"),
    "sqrt(d_v)": ("manual-attention", manual.src(SCALE="/ math.sqrt(V.size(-1))"), "= √d_v here"),
    "heads share one slice": (MHA, mha.einsum().replace(
        "return t.reshape(b, n, self.h, self.head_dim).permute(0, 2, 1, 3)",
        "return t[..., :self.head_dim].unsqueeze(1).expand(b, self.h, n, self.head_dim)"),
        "every head has the same weights"),
    "heads concatenated in reverse": (MHA, mha.einsum(MERGE="ctx.flip(1).permute(0, 2, 1, 3).reshape(b, n, e)"),
                                      "the right columns in another order"),
    "dropout left on": (MHA, mha.einsum(SOFTMAX="F.dropout(F.softmax(att, dim=-1), 0.1, training=True)"),
                        "Two identical calls"),
    # 0 is named (zero-fill, a mistake file); -1 is the same bug in another spelling, observed
    "additive: hidden keys filled with -1": (ADD, add.src(MASK=(
        "pos = torch.arange(s.shape[-1]).view(1, 1, -1)\n"
        "        s = torch.where(pos < valid_lens.view(-1, 1, 1), s, torch.full_like(s, -1.0))")),
        "every hidden key of a row gets the same weight"),
    "mask transposed": (MHA, mha.einsum(MASK="att = att.masked_fill(mask.transpose(-1, -2) == False, float('-inf'))"),
                        "transpose of the right ones"),
    "row.max() of an empty row": ("masked-softmax", msm.src(BODY=(
        "out = torch.zeros_like(X)\n    for b in range(B):\n        for i in range(n):\n"
        "            row = X[b, i, :int(L[b, i])]\n            e = torch.exp(row - row.max())\n"
        "            out[b, i, :int(L[b, i])] = e / e.sum()\n    return out")),
        "valid length is 0"),
    "a mask that does not broadcast": ("manual-attention", manual.src(MASK=(
        "s = torch.where(mask.transpose(-1, -2) if mask.dim() == 3 and mask.shape[-2] == 1 else mask, "
        "s, torch.full_like(s, -1e9))")), "do not broadcast: at dimension"),
}


OBSERVED.update({
    "per-term tanh": (ADD, PER_TERM_TANH, "a part that depends only on the query plus"),
    "w_v inside the tanh": (ADD, add.src(SCORE="torch.tanh(torch.einsum('bnmh,h->bnm', a.unsqueeze(2) + b.unsqueeze(1), w_v))"),
                            "between −1 and 1, the range of a tanh"),
    "-1e6 added instead of filled": ("masked-softmax", msm.src(BODY="return soft(X + (~visible) * -1e6)"),
                                     "rows that should be uniform"),
    "additive: valid_lens on the queries": (ADD, add.src(MASK=(
        "keep = torch.arange(s.shape[1]).view(1, -1, 1) < valid_lens.view(-1, 1, 1)\n"
        "        s = s.masked_fill(~keep, -1e6)")), "applied to the queries (rows) instead of the keys"),
    "additive: scores divided by sqrt(h)": (ADD, add.src(SCORE="torch.einsum('bnmh,h->bnm', feat, w_v) / w_v.shape[0] ** 0.5"),
                                            "additive scores w_vᵀ tanh(W_q q + W_k k) are not scaled"),
    "nadaraya-watson: w divides the distance": ("nadaraya-watson", nw.src(LOGITS="-((d / w) ** 2) / 2"), "= 1/w⁴ here"),
    # blind set 2026-12-02: the scores K·Qᵀ in an exercise with no mistake file for it
    "manual: K·Qᵀ": ("manual-attention", manual.src().replace('"...nd,...md->...nm", Q, K', '"...nd,...md->...nm", K, Q'),
                     "softmax of the transposed scores"),
    "nadaraya-watson: kernel divided by m": ("nadaraya-watson", nw.src(SOFTMAX="logits.exp() / logits.shape[1]"),
                                             "divided by something other than the row's own sum"),
})

# Words that must appear in no feedback of these submissions: a cause their code does not have.
NEVER = {
    "manual: K·Qᵀ": ("tanh",),
    "nadaraya-watson: kernel divided by m": ("mask",),
    "additive: scores divided by sqrt(h)": ("√d_k", "Q·Kᵀ"),
    "nadaraya-watson: w divides the distance": ("mask",),
    "additive: valid_lens on the queries": ("ignored",),
}


def _failed(report):
    return [t for t in report.tests if not t.passed]


@pytest.mark.parametrize("label", list(OBSERVED))
def test_an_unnamed_mistake_is_told_by_what_differs(grader, label):
    exercise, source, words = OBSERVED[label]
    report = grader.grade(exercise, source)
    assert not report.full_marks and report.mistakes() == [], report.mistakes()
    texts = [t.message["en"] for t in _failed(report)]
    assert any(words in text for text in texts), texts
    for word in NEVER.get(label, ()):
        assert not any(word in text for text in texts), (word, texts)


def test_masked_scores_filled_with_0_are_not_called_an_ignored_mask(grader):
    # manual-attention__09 of the blind set: the mask is used, with an ordinary fill
    report = grader.grade("manual-attention", manual.src(MASK="s = s.masked_fill(~mask, 0.0)"))
    assert report.mistakes() == ["zero-fill"]
    ignored = grader.grade("manual-attention", manual.src(MASK="pass"))
    assert ignored.mistakes() == ["mask-ignored"]


def test_ignored_valid_lens_are_not_called_a_zero_fill(grader):
    report = grader.grade("masked-softmax", msm.src(BODY="return soft(X)"))
    assert not report.full_marks and "zero-fill" not in report.mistakes()


def test_allclose_without_the_callers_atol_is_not_called_an_inverse_permutation(grader):
    report = grader.grade(EQ, perm.src(COMPARE="bool(torch.allclose(b, a[:, p]))"))
    assert report.mistakes() == ["atol-ignored"]


def test_positions_added_inside_the_check_is_not_called_compare_directly(grader):
    source = perm.src(layER_PERM="layer(x[:, p] + torch.sin(torch.arange(x.shape[1], dtype=x.dtype)).view(1, -1, 1))")
    report = grader.grade(EQ, source)
    assert not report.full_marks and "no-permute-back" not in report.mistakes()
    assert report.mistakes() == []


def test_per_term_tanh_is_not_called_tanh_missing(grader):
    report = grader.grade(ADD, PER_TERM_TANH)
    assert not report.full_marks and report.mistakes() == []


def test_bias_false_is_one_contract_message_charged_once(grader):
    source = mha.einsum().replace("nn.Linear(embed_dim, embed_dim)", "nn.Linear(embed_dim, embed_dim, bias=False)")
    report = grader.grade(MHA, source)
    failed = _failed(report)
    assert [t.name for t in failed] == ["submodules are nn.Linear(E, E) with bias, named as in the contract"]
    assert "the statement fixes `bias=True`: `nn.Linear(12, 12)`" in failed[0].message["en"]
    assert "bias=True" in failed[0].message["zh"]
    assert report.score == report.max_score - failed[0].max_score


def test_a_missing_submodule_is_named_from_the_contract(grader):
    source = mha.einsum().replace("self.out_proj = nn.Linear", "self.proj = nn.Linear").replace(
        "self.out_proj(ctx)", "self.proj(ctx)")
    report = grader.grade(MHA, source)
    first = _failed(report)[0]
    assert "`out_proj` is missing" in first.message["en"]


def test_observations_come_from_the_first_stage_that_differs(grader):
    """Weights are right and the output is not: the message says so, in that order."""
    report = grader.grade(MHA, OBSERVED["heads concatenated in reverse"][1])
    merged = next(t for t in report.tests if t.name.startswith("out_proj = identity"))
    assert merged.message["en"].startswith("`weights` right, `output` not:")
    assert merged.message["zh"].startswith("`weights` 正确，`output` 不正确：")


def test_every_failing_value_case_names_its_stage(grader):
    """Each failed case says which output (a backticked name) or which mistake: never a bare
    'wrong values' without the place."""
    for exercise, source, _words in OBSERVED.values():
        for t in _failed(grader.grade(exercise, source)):
            assert t.mistake or re.search(r"`[^`]+`|Same (problem|mistake) as in", t.message["en"]), t.message


def test_chinese_observations_keep_their_punctuation_tight(grader):
    for exercise, source, _words in OBSERVED.values():
        for t in _failed(grader.grade(exercise, source)):
            shown = re.sub(r"`[^`\n]*`", "x", t.message["zh"])
            assert not re.findall(r".{0,12}[，。：；！？）] ", shown), t.message["zh"]


def test_no_correct_variant_gets_an_observation(grader):
    for module in (mha, manual, add, msm, perm):
        ex = module.__name__.removeprefix("variants_").replace("_", "-")
        for label, expected, source in module.VARIANTS:
            if expected is None:
                assert grader.grade(ex, source).full_marks, label


def test_the_untouched_starter_is_told_its_outputs_are_constant(grader):
    """The starter of manual-attention returns zeros: no exercise's words (a tanh, a split of
    the scores) describe it; the observation says what its values are."""
    from grader.exercises import EXERCISES_DIR

    report = grader.grade("manual-attention", (EXERCISES_DIR / "manual-attention" / "starter.py").read_text())
    texts = [t.message["en"] for t in _failed(report)]
    assert any("every entry of `scores` is 0" in text for text in texts), texts
    assert not any("tanh" in text or "depends only on the query" in text for text in texts), texts


def test_a_learners_own_raise_on_legal_inputs_is_told_by_its_line_not_a_guessed_category(grader):
    """positional-table__11 of the 2026-12-03 blind set: `max_len <= 1` refuses a legal one-row
    table with the learner's own ValueError("... must be ..."), which the text categories read
    as "a value of the wrong type or an argument the call does not take"."""
    source = '''import math
import torch


def positional_encoding(max_len, d_model):
    if max_len <= 1 or d_model < 2 or d_model % 2:
        raise ValueError("max_len must be > 1 and d_model even")
    pos = torch.arange(max_len, dtype=torch.float64)[:, None]
    freq = torch.exp(-math.log(10000.0) * torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)
    table = torch.zeros(max_len, d_model, dtype=torch.float64)
    table[:, 0::2], table[:, 1::2] = torch.sin(pos * freq), torch.cos(pos * freq)
    return table.float()


def add_positions(X):
    B, T, d = X.shape
    return X * math.sqrt(d) + positional_encoding(T, d).to(X.dtype)
'''
    report = grader.grade("positional-table", source)
    failed = _failed(report)
    assert [t.name for t in failed] == ["table, one position (max_len 1)"]
    text = failed[0].message["en"]
    assert "at line 7 of your code" in text and "wrong type" not in text


def test_a_type_check_that_passes_is_not_called_a_right_value_and_a_misplaced_mask_gets_no_fill_advice(grader):
    """Chromium pass 2026-12-02: a causal mask built with triu. The types case said
    "`causal_attention`, `causal_mask` right, `weights` not: … hide keys … with a large negative
    fill": only their dtypes were checked there, and the fill was right (-inf); the mask was the
    transpose. A dtype or probe check is no right value, and a hidden set in the wrong place
    points at how the mask is built."""
    source = '''import math
import torch


def causal_mask(n):
    if n < 1:
        raise ValueError("n must be >= 1")
    return torch.triu(torch.ones(n, n, dtype=torch.bool))


def causal_attention(Q, K, V):
    if Q.shape[-2] != K.shape[-2] or K.shape[-2] != V.shape[-2] or Q.shape[-1] != K.shape[-1]:
        raise ValueError("shapes")
    s = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
    s = s.masked_fill(~causal_mask(Q.shape[-2]), float("-inf"))
    w = torch.softmax(s, dim=-1)
    return w @ V, w
'''
    report = grader.grade("causal-mask", source)
    types = next(t for t in report.tests if t.name.startswith("types"))
    assert not types.passed
    en = types.message["en"]
    assert "`causal_mask` right" not in en and "large negative fill" not in en, en
    assert "look at how the mask is built" in en or "Same mistake" in en, en
