"""Issue 26, item 4: huge numbers typed into Q, K or V. 1e200 gave "Something went wrong on our
side" (the step view overflowed converting inf); 1e20 left blank score cells and printed 5e19 as
50000001002043870000. Now the page names the number and the limit, in both languages."""

from __future__ import annotations

import re

import pytest

from transformer_lab.message import LabError
from webapp.compute.matrices import MAX_ABS, parse_matrix

V = "1 2 3 4\n5 6 7 8\n9 10 11 12"


@pytest.mark.parametrize("big", ["1e200", "1e20", "-3e5", "10001"])
def test_a_number_past_the_limit_is_named_with_the_limit_in_both_languages(big):
    from webapp.pages.basics import render, render_steps
    from webapp.pages.common import message

    q = f"{big} 0 1 0\n0 1 0 1\n1 1 1 1"
    for call in (lambda: render(q, q, V, "dot", True, "none", None, 0),
                 lambda: render_steps(q, q, V, "dot", True, "none", None)):
        with pytest.raises(LabError) as err:
            call()
        en, zh = message(err.value, "en"), message(err.value, "zh")
        assert f"Q, row 1: {big} is too large" in en and "10000" in en, en
        assert f"Q 第 1 行：{big} 太大了" in zh and "10000" in zh, zh
        assert not set(re.findall(r"[A-Za-z]{3,}", zh)) - {"softmax", "float"}, zh


def test_numbers_up_to_the_limit_still_draw_every_table_and_step():
    from webapp.pages.basics import render, render_steps

    q = f"{MAX_ABS:g} 0 1 0\n0 1 0 1\n1 1 1 1"
    tables = render(q, q, V, "dot", True, "none", None, 0)
    weights = tables[2].iloc[:, 1:].to_numpy(dtype=float)
    assert (abs(weights.sum(axis=1) - 1) < 1e-6).all()
    assert all(fig is not None for fig in render_steps(q, q, V, "dot", True, "none", None))
    assert parse_matrix(f"-{MAX_ABS:g} 1", "K") == [[-MAX_ABS, 1.0]]
