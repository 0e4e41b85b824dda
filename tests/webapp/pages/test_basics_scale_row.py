"""Issue 26, item 5: the lesson's check value cannot catch the lesson's first mistake. q0's
context is [5, 6, 7, 8] with or without ÷√d, and unticking "Divide by √d" left it there with
nothing said. The caption now reads the learner's own numbers: the row the tickbox moves most,
and a row whose output stays put although its weights change."""

from __future__ import annotations

import pytest

from webapp.compute.basics import attention_basics
from webapp.compute.matrices import LESSON_K, LESSON_Q, LESSON_V
from webapp.pages.basics import caption


def _pair(q=LESSON_Q, k=LESSON_K, v=LESSON_V, scale=True):
    return (attention_basics(q, k, v, "dot", scale, "none", None, 0),
            attention_basics(q, k, v, "dot", not scale, "none", None, 0))


@pytest.mark.parametrize("scale", [True, False])
def test_the_lesson_example_points_at_q2_and_says_q0_cannot_tell(scale):
    r, other = _pair(scale=scale)
    en = caption(r, "dot", "en", scale, "none", None, other)
    assert "moves output row q2 most: [6.46, 7.46, 8.46, 9.46] with ÷√d, [7.72, 8.72, 9.72, 10.72]" in en
    assert "Row q0 keeps the same output although its weights change" in en
    zh = caption(r, "dot", "zh", scale, "none", None, other)
    assert "输出变化最大的是 q2 这一行" in zh and "q0 这一行的权重虽然变了，输出却不变" in zh


def test_inputs_where_every_row_moves_name_no_still_row():
    r, other = _pair(q="1 0\n0 2", k="1 0\n0 1", v="1 0\n0 1")
    en = caption(r, "dot", "en", True, "none", None, other)
    assert "moves output row" in en and "keeps the same output" not in en


def test_without_the_other_setting_the_caption_is_as_before():
    r, _ = _pair()
    assert "moves output row" not in caption(r, "dot", "en", True, "none", None)
