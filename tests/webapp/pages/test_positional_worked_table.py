"""Issue 26, item 11: the positional page's worked table was the lesson's d_model = 4 table
whatever d_model was typed. It is now the learner's own table (its first 5 positions and 8
dimensions), and its label says so; at d_model = 4 it is the lesson's table."""

from __future__ import annotations

import pytest

from transformer_lab.positional import sinusoidal_table
from webapp.pages.positional import render


@pytest.mark.parametrize("length, d, rows, cols", [(60, 32, 5, 8), (3, 6, 3, 6), (60, 4, 5, 4)])
def test_the_table_is_the_learners_own(length, d, rows, cols):
    df = render(length, d, "0, 1", "en")[2]
    numbers = df.iloc[:, 1:].to_numpy(dtype=float)
    assert numbers.shape == (rows, cols)
    assert numbers == pytest.approx(sinusoidal_table(length, d)[:rows, :cols].numpy(), abs=1e-4)


def test_d_model_4_gives_the_lessons_table():
    lesson = render(5, 4, "0, 1", "en")[2].iloc[:, 1:].to_numpy(dtype=float)
    assert lesson[1, 0] == pytest.approx(0.8415, abs=1e-4)  # sin(1): frequency 1
    assert lesson[1, 2] == pytest.approx(0.01, abs=1e-4)  # sin(0.01): frequency 0.01


def test_the_label_says_what_the_table_is_in_both_languages():
    from webapp.i18n import tr

    assert "first 5 positions" in tr("pe.table", "en") and "d_model = 4" in tr("pe.table", "en")
    assert "前 5 个位置" in tr("pe.table", "zh")
