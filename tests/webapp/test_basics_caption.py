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
