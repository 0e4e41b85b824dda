"""Head grids for the browser's width (webapp.pages.viewport): below the phone breakpoint the
grid takes the narrow layout, colour bar beneath, even when every head fits in one row (issue
26, item 9: two heads with the bar beside them got ~80 px each and their titles collided)."""

from __future__ import annotations

import numpy as np

from webapp.pages.viewport import PHONE_PX, grid_columns, head_grid


def test_a_phone_gets_the_narrow_layout_for_any_number_of_heads():
    assert grid_columns(390, 1) == 1
    assert grid_columns(390, 2) == 2  # was None: one row with the colour bar beside it
    assert grid_columns(390, 4) == 2
    assert grid_columns(390, 8) == 2


def test_a_wider_screen_keeps_one_row_per_layer_where_the_heads_fit():
    assert grid_columns(1280, 4) is None
    assert grid_columns(PHONE_PX, 2) is None
    assert grid_columns(700, 8) == 4
    assert grid_columns(None, 2) is None and grid_columns(0, 2) is None  # an API call


def test_two_heads_on_a_phone_put_the_colour_bar_beneath_the_panels():
    rng = np.random.default_rng(0)
    maps = [rng.dirichlet(np.ones(5), size=(2, 5))]  # one layer: (heads 2, n 5, m 5)
    tokens = list("abcde")
    phone = head_grid(maps, tokens, tokens, "en", width=390)
    desk = head_grid(maps, tokens, tokens, "en", width=1280)
    assert phone.layout.coloraxis.colorbar.orientation == "h"  # beneath
    assert desk.layout.coloraxis.colorbar.orientation is None  # beside, plotly's default
    # both heads side by side on the phone, each half of the width
    a, b = phone.layout.xaxis.domain, phone.layout.xaxis2.domain
    assert a[0] == 0 and b[1] == 1 and a[1] < b[0]
    assert phone.layout.margin.l == 50 and phone.layout.margin.r == 10
