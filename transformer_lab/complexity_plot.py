"""The Complexity page's figure: measured time per layer against n, on log-log axes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from .tables import check_timings, normalise_lang, timing_slopes, word
from .words import LAYER_NAMES

__all__ = ["LAYER_NAMES", "complexity_figure"]

_BELOW = {"orientation": "h", "x": 0.0, "xanchor": "left", "y": -0.22, "yanchor": "top"}


def complexity_figure(df: pd.DataFrame, title: str | None = None, lang: str = "en") -> go.Figure:
    """Measured time vs sequence length on log-log axes, one line per layer type (and width d).

    The legend gives each line's fitted log-log slope: about 2 means quadratic in n, 1 linear.
    """
    df = check_timings(df)
    slopes = timing_slopes(df).set_index(["layer", "d"])["slope"]
    several_d = df["d"].nunique() > 1
    fig = go.Figure()
    for (layer, d), part in df.groupby(["layer", "d"], sort=False):
        name = LAYER_NAMES.get(layer, (str(layer),) * 2)[normalise_lang(lang) == "zh"]
        label = name + (f" (d={d})" if several_d else "")
        if not np.isnan(slopes[(layer, d)]):
            label += f" · {word('slope', lang)} {slopes[(layer, d)]:.2f}"
        fig.add_trace(go.Scatter(x=part["n"], y=part["ms"], mode="lines+markers", name=label))
    # Ticks at the measured lengths (128, 256, …) and at 1-2-5 steps of time: plotly's default
    # log ticks read "2 3 … 9 1000", which says nothing about the sizes that were run.
    ns = sorted(int(n) for n in df["n"].unique())
    fig.update_xaxes(type="log", title_text=word("n", lang), tickvals=ns, ticktext=[str(n) for n in ns])
    lo, hi = float(df["ms"].min()), float(df["ms"].max())
    ticks = [m * 10.0**e for e in range(int(np.floor(np.log10(lo))), int(np.ceil(np.log10(hi))) + 1)
             for m in (1, 2, 5) if lo / 2 <= m * 10.0**e <= hi * 2]
    fig.update_yaxes(type="log", title_text=word("ms", lang), tickvals=ticks,
                     ticktext=[f"{x:g}" for x in ticks])
    fig.update_layout(title=word("complexity", lang) if title is None else title,
                      legend=_BELOW, height=460)
    return fig


