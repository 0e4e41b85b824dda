"""The Basics page's "What to notice" follows the learner's Q and K (it always said d = 4)."""

from __future__ import annotations

import math

import pytest

from webapp.compute.basics import attention_basics, random_qkv
from webapp.pages.basics import caption


def widths(d: int, d_k: int | None = None) -> tuple[str, str, str]:
    """Q (2×d), K (3×d_k) and V (3×2) as the page's text boxes hold them."""
    return ("\n".join([" ".join(["1"] * d)] * 2), "\n".join([" ".join(["0.5"] * (d_k or d))] * 3),
            "1 2\n3 4\n5 6")


@pytest.mark.parametrize("d", [2, 4, 9, 16])
def test_dot_caption_names_the_learners_d_and_the_factor_the_scores_really_change_by(d):
    q, k, v = widths(d)
    scaled = attention_basics(q, k, v, "dot", True)
    raw = attention_basics(q, k, v, "dot", False)
    factor = float(raw.scores[0, 0] / scaled.scores[0, 0])  # what unticking really does
    assert factor == pytest.approx(math.sqrt(d))
    for lang in ("en", "zh"):
        text = caption(scaled, "dot", lang)
        assert f"d = {d} " in text
        assert "d = 4" not in text or d == 4
        root = "1.41" if d == 2 else str(round(factor))
        assert f"{root}×" in text if lang == "en" else f"{root} 倍" in text
        assert (f"√{d} = {root}" if d != 2 else "√2 ≈ 1.41") in text


def test_width_one_says_the_scaling_changes_nothing():
    q, k, v = widths(1)
    text = caption(attention_basics(q, k, v, "dot", True), "dot", "en")
    assert "d = 1 column" in text and "changes nothing" in text
    assert "不改变任何结果" in caption(attention_basics(q, k, v, "dot", True), "dot", "zh")


def test_additive_caption_has_no_sqrt_d_and_names_both_widths():
    q, k, v = widths(3, 5)
    r = attention_basics(q, k, v, "additive", True)
    assert "(3 and 5 here)" in caption(r, "additive", "en")
    assert "这里是 3 和 5" in caption(r, "additive", "zh")


def test_randomised_matrices_keep_the_caption_in_step():
    q, k, v = random_qkv(n=2, m=2, d=6, d_v=3, seed=3)
    text = caption(attention_basics(q, k, v), "dot", "en")
    assert "d = 6 columns" in text and "√6 ≈ 2.45" in text and "2.45×" in text


def test_unticked_caption_says_the_scores_are_raw_not_that_unticking_would_change_them():
    # With the tickbox off it said "untick it and the scores grow 2×": they had already grown.
    q, k, v = widths(4)
    raw = attention_basics(q, k, v, "dot", False)
    en, zh = caption(raw, "dot", "en", scale=False), caption(raw, "dot", "zh", scale=False)
    assert "untick it" not in en and "is off" in en and "raw dot products Q·Kᵀ" in en
    assert "2× the scaled" in en and "d = 4" in en
    assert "取消勾选，" not in zh and "已取消" in zh and "2 倍" in zh
    ticked = caption(attention_basics(q, k, v, "dot", True), "dot", "en", scale=True)
    assert "untick it and the scores grow 2×" in ticked and "is off" not in ticked


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_caption_names_the_mask_it_shows(lang):
    q, k, v = widths(2)
    q = "1 0\n0 1\n1 1"  # three queries, three keys: a causal mask fits
    plain = caption(attention_basics(q, k, v, "dot", True), "dot", lang)
    r = attention_basics(q, k, v, "dot", True, "valid", 2)
    assert r.weights[:, 2].eq(0).all()  # what the sentence claims: key 2 gets no weight
    valid = caption(r, "dot", lang, mask="valid", valid_len=2)
    causal = caption(attention_basics(q, k, v, "dot", True, "causal"), "dot", lang, mask="causal")
    if lang == "en":
        assert "mask" not in plain
        assert "keeps the first 2 of the 3 keys" in valid and "−∞" in valid
        assert "causal mask" in causal and "q0 puts all its weight on k0" in causal
    else:
        assert "掩码" not in plain
        assert "3 个键中的前 2 个" in valid and "−∞" in valid
        assert "因果掩码" in causal
    assert "。 " not in valid + causal or lang == "en"


def test_scores_table_title_says_what_the_table_holds():
    from webapp.pages.basics import scores_label

    q, k, v = widths(4)
    # the table shows r.scores: ÷√d applied when ticked (step 1 "Q·Kᵀ" shows the raw ones)
    assert float(attention_basics(q, k, v, "dot", True).scores[0, 0]) == 1.0  # 4 × 0.5 ÷ 2
    assert scores_label("dot", True, "none", "en") == "Scores after ÷√d (before softmax)"
    assert "not divided by √d" in scores_label("dot", False, "none", "en")
    assert "÷√d" not in scores_label("dot", False, "none", "en")
    assert "√d" not in scores_label("additive", True, "none", "en")
    assert scores_label("dot", True, "causal", "en").endswith("masked keys read −∞")
    assert scores_label("dot", True, "none", "zh") == "分数（除以 √d 之后，softmax 之前）"
    assert "未除以 √d" in scores_label("dot", False, "valid", "zh")
    assert "−∞" in scores_label("dot", False, "valid", "zh")
