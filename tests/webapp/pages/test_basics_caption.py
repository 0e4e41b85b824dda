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


# --- new-learner pass 4 (2026-12-01) -------------------------------------------------------

LESSON_3 = ("1 0 1 0\n0 1 0 1\n1 1 1 1", "1 0 1 0\n0 1 0 1\n1 1 1 1", "1 2 3 4\n5 6 7 8\n9 10 11 12")


def _page_error(*args) -> str:
    """The English message the Basics page raises for these settings (render is its callback)."""
    from webapp.pages.basics import render

    with pytest.raises(ValueError) as err:
        render(*args)
    return str(err.value)


@pytest.mark.parametrize("valid", [0, 7, 17, None, 2.5])
def test_every_bad_valid_length_names_the_real_limit_the_number_of_keys(valid):
    # Length 0 said "must lie between 1 and 16", length 7 "from 1 to 3 (the number of keys)":
    # two limits for one box. The real one is 1 … the number of keys (K's rows, here 3).
    from webapp.pages.basics import render
    from webapp.pages.common import message

    q, k, v = LESSON_3
    m = len(k.splitlines())
    text = _page_error(q, k, v, "dot", True, "valid", valid, 0)
    assert f"from 1 to {m} (the number of keys)" in text and "16" not in text, text
    with pytest.raises(ValueError) as err:  # the Chinese page's sentence: the key's, not parsed
        render(q, k, v, "dot", True, "valid", valid, 0)
    assert f"1 到 {m} 之间的整数（键的个数）" in message(err.value, "zh")
    # the same box and message for additive scoring, and every length up to m is accepted
    assert _page_error(q, k, v, "additive", True, "valid", valid, 0) == text
    for ok in range(1, m + 1):
        render(q, k, v, "dot", True, "valid", ok, 0)


def test_a_valid_length_above_16_is_fine_when_there_are_that_many_keys():
    from webapp.pages.basics import render

    k = "\n".join(["1 0"] * 16)
    v = "\n".join(["1"] * 16)
    weights = render("1 0", k, v, "dot", True, "valid", 16, 0)[2]
    assert weights.shape == (1, 17)  # q label + 16 keys, none hidden
    assert "from 1 to 16" in _page_error("1 0", k, v, "dot", True, "valid", 0, 0)


def test_additive_scoring_replaces_the_five_step_heading_with_one_sentence():
    from webapp.pages.basics import render_steps, steps_intro

    q, k, v = LESSON_3
    assert all(f is None for f in render_steps(q, k, v, "additive", True, "valid", 2))
    assert all(f is not None for f in render_steps(q, k, v, "dot", True, "valid", 2))
    for lang, hover, dot in (("en", "Hover", "Dot product"), ("zh", "鼠标", "点积")):
        additive, plain = steps_intro("additive", lang), steps_intro("dot", lang)
        assert hover in plain and hover not in additive
        assert dot in additive and "Q·Kᵀ" in additive


def test_the_masked_scores_table_writes_one_minus_sign():
    # "-0.1179" (ASCII hyphen) stood beside "−∞" (U+2212) in the additive, valid-length table.
    from webapp.compute.basics import attention_basics
    from webapp.pages.basics import render

    q, k, v = LESSON_3
    for scoring in ("additive", "dot"):
        for mask, valid in (("valid", 2), ("causal", None)):
            table = render(q, k, v, scoring, True, mask, valid, 0)[1]
            cells = [str(c) for col in table.columns[1:] for c in table[col]]
            assert "−∞" in cells and not any("-" in c for c in cells), cells
    r = attention_basics(q, k, v, "additive", True, "valid", 2, 0)
    table = render(q, k, v, "additive", True, "valid", 2, 0)[1]
    for i in range(3):
        for j in range(2):  # the kept keys: the same numbers, only the sign's glyph changed
            assert float(table.iloc[i, j + 1].replace("−", "-")) == pytest.approx(
                float(r.scores[i, j]), abs=5e-5)
    assert (r.scores[:, :2] < 0).any()  # the table really holds a negative number
