"""Issue 26, item 11: the positional page's worked table was the lesson's d_model = 4 table
whatever d_model was typed. It is now the learner's own table (its first 5 positions and 8
dimensions), labelled with what it shows; at d_model = 4 it is the lesson's table."""

from __future__ import annotations

import pytest

from transformer_lab.positional import sinusoidal_table
from webapp.pages.positional import render


@pytest.mark.parametrize("length, d, rows, cols", [(60, 32, 5, 8), (3, 6, 3, 6), (60, 4, 5, 4)])
def test_the_table_is_the_learners_own(length, d, rows, cols):
    update = render(length, d, "0, 1", "en")[2]
    df = update["value"]
    numbers = df.iloc[:, 1:].to_numpy(dtype=float)
    assert numbers.shape == (rows, cols)
    assert numbers == pytest.approx(sinusoidal_table(length, d)[:rows, :cols].numpy(), abs=1e-4)
    assert f"d_model = {d}" in update["label"] and f"0–{rows - 1}" in update["label"]
    assert "d_model = " in render(length, d, "0, 1", "zh")[2]["label"]


def test_d_model_4_gives_the_lessons_table():
    lesson = render(5, 4, "0, 1", "en")[2]["value"].iloc[:, 1:].to_numpy(dtype=float)
    assert lesson[1, 0] == pytest.approx(0.8415, abs=1e-4)  # sin(1): frequency 1
    assert lesson[1, 2] == pytest.approx(0.01, abs=1e-4)  # sin(0.01): frequency 0.01
