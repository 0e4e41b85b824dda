"""The Complexity page's caption follows the measurement it sits under (never a fixed 'about 2')."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from webapp.pages.complexity import measured_caption

NS = [128, 256, 512, 1024]


def timings(exponents: dict[str, float]) -> pd.DataFrame:
    """Exact power laws ms = c · n^p, so each layer's log-log slope is its p."""
    return pd.DataFrame([(layer, n, 64, 0.01 * n**p) for layer, p in exponents.items() for n in NS],
                        columns=["layer", "n", "d", "ms"])


def slopes_in(text: str) -> dict[str, float]:
    return {m[0]: float(m[1]) for m in re.findall(r"([a-zA-Z() =3-]+?) \*\*(-?[\d.]+)\*\*", text)}


def test_caption_reports_the_measured_slopes_and_agreement():
    text = measured_caption(timings({"self-attention": 2.0, "recurrent (GRU)": 1.1,
                                     "convolutional (k=3)": 0.9}))
    found = {k.strip(" ;:"): v for k, v in slopes_in(text).items()}
    assert found == {"self-attention": 2.0, "recurrent (GRU)": 1.1, "convolutional (k=3)": 0.9}
    assert "within 0.35" in text and "departs" not in text
    assert "median of 7" in text  # says how it was measured


def test_caption_says_so_when_a_busy_machine_bends_the_slope():
    # self-attention measured at 1.4 (the walk-through saw a caption "about 2" over such a figure)
    df = timings({"self-attention": 1.4, "recurrent (GRU)": 1.0, "convolutional (k=3)": 1.0})
    text = measured_caption(df)
    assert "self-attention **1.40** (theory 2)" in text
    assert "within 0.35" not in text
    assert "self-attention departs from the theory" in text
    ratio = 2**1.4  # the last doubling of n, 512 -> 1024
    assert f"×{ratio:.1f} (theory ×4)" in text
    zh = measured_caption(df, "zh")
    assert "自注意力 **1.40**（理论值 2）" in zh and "相差超过 0.35" in zh
    assert not re.search(r"[A-Za-z]{3,}", zh.replace("GRU", "")), zh  # Chinese throughout


def test_caption_uses_the_sizes_that_were_run():
    df = timings({"self-attention": 3.0, "recurrent (GRU)": 1.0, "convolutional (k=3)": 1.0})
    df = df[df["n"] <= 512]
    text = measured_caption(df)
    assert "n 256 → 512" in text and f"×{np.float64(2.0**3):.1f}" in text


def test_chinese_layer_names_keep_the_caption_and_legend_tight():
    """A name ending in a full-width bracket put an ASCII space after it ('循环（GRU） · 斜率',
    '循环（GRU） 1.10'): the Chinese names end in a letter or a digit."""
    import re

    from transformer_lab.complexity_plot import LAYER_NAMES

    for _, zh in LAYER_NAMES.values():
        assert not re.search(r"[，。：；！？）]$", zh), zh
