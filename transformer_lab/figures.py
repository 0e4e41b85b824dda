"""Plotly figures for positional encodings, training curves and kernel regression.

Attention maps (heatmap, layers × heads grid, alignment) are in attention_plot.py; the
Complexity page's benchmark figure is in complexity_plot.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.colors import qualitative
from plotly.subplots import make_subplots

from .attention_plot import WEIGHT_SCALE
from .tables import (
    as_array,
    collect_runs,
    positional_frame,
    word,
)

SIGNED_SCALE = "RdBu"  # for values in [-1, 1] such as sin/cos
# Figures set a height but no width: plotly (and gr.Plot, responsive) then fill the container,
# where a fixed width overflows a narrow Gradio column. Legends go below the panels: on the
# right they collide with colour bars and squeeze the panels.
_BELOW = {"orientation": "h", "x": 0.0, "xanchor": "left", "y": -0.22, "yanchor": "top"}
_KNOWN_METRICS = ("loss", "eval_loss", "token_accuracy", "exact_match", "lr", "seconds")
_ALIASES = {"token_acc": "token_accuracy", "exact_acc": "exact_match"}  # train.py's names


def positional_heatmap(table: Any, title: str | None = None, lang: str = "en") -> go.Figure:
    """A (T, d) positional encoding table: positions down, dimensions across."""
    arr = as_array(table, "table", ndim=2)  # (T, d)
    fig = go.Figure(
        go.Heatmap(z=arr, x=list(range(arr.shape[1])), y=list(range(arr.shape[0])),
                   colorscale=SIGNED_SCALE, zmin=-1.0, zmax=1.0, zmid=0.0,
                   hovertemplate=f"{word('position', lang)}: %{{y}}<br>{word('dimension', lang)}:"
                   " %{x}<br>%{z:.4f}<extra></extra>")
    )
    fig.update_yaxes(autorange="reversed")
    fig.update_layout(
        title=word("pe_title", lang) if title is None else title,
        xaxis_title=word("dimension", lang),
        yaxis_title=word("position", lang),
    )
    return fig


def positional_curves(
    table: Any, dims: Sequence[int] = (0, 1, 2, 3), title: str | None = None, lang: str = "en"
) -> go.Figure:
    """Chosen columns of a (T, d) encoding table as curves over positions."""
    df = positional_frame(table, dims)
    fig = go.Figure()
    for dim, part in df.groupby("dimension", sort=False):
        fig.add_trace(go.Scatter(x=part["position"], y=part["value"], mode="lines+markers",
                                 name=word("dim_n", lang).format(dim=dim)))
    fig.update_layout(
        title=word("pe_curves", lang) if title is None else title,
        xaxis_title=word("position", lang),
        yaxis_title=word("value", lang),
    )
    return fig


FRACTIONS = ("token_accuracy", "exact_match")  # panels drawn on 0…1 whatever the values


def _metric_name(metric: str, lang: str) -> str:
    return word(metric, lang) if metric in _KNOWN_METRICS else metric


def training_curves(
    history: pd.DataFrame | None,
    metrics: Sequence[str] = ("loss", "token_accuracy", "exact_match"),
    compare: Mapping[str, pd.DataFrame] | None = None,
    name: str = "run",
    title: str | None = None,
    lang: str = "en",
    stack: bool = False,
) -> go.Figure:
    """One panel per metric against `step`; several runs overlay with one colour each.

    `stack=True` puts the panels under each other (one column), which also fits a phone.

    `history` is train.py's history or a wide table (see `tables.history_frame`); it may be None
    when `compare` maps run names to histories. Evaluation columns are NaN between evaluations:
    those rows are dropped per metric, so curves do not break into dots. The "loss" panel also
    shows `eval_loss` (dashed). Scores measured by free-running decoding (`decoded` True) are
    drawn as diamonds, apart from the teacher-forced line, because they are a different measure.
    """
    runs = collect_runs(history, compare, name)
    metrics = [_ALIASES.get(m, m) for m in metrics]
    if not metrics:
        raise ValueError("metrics is empty: choose at least one column, e.g. ('loss',).")
    for metric in metrics:
        # Known metrics may be absent early in a live run (no evaluation yet): an empty panel.
        if metric not in _KNOWN_METRICS and not any(metric in df for df in runs.values()):
            raise ValueError(f"No run has a column {metric!r}; known metrics: {_KNOWN_METRICS}.")
    shape = (len(metrics), 1) if stack else (1, len(metrics))
    fig = make_subplots(rows=shape[0], cols=shape[1], vertical_spacing=0.12,
                        subplot_titles=[_metric_name(m, lang) for m in metrics])

    def at(c: int) -> dict:
        return {"row": c + 1, "col": 1} if stack else {"row": 1, "col": c + 1}

    decoded_shown = False
    for r, (run, df) in enumerate(runs.items()):
        colour = qualitative.Plotly[r % len(qualitative.Plotly)]
        decoded = df["decoded"].eq(True) if "decoded" in df.columns else df["step"].isna()
        legend_shown = False
        for c, metric in enumerate(metrics):
            series = [(metric, "solid")] + ([("eval_loss", "dash")] if metric == "loss" else [])
            for col, dash in series:
                if col not in df.columns:
                    continue
                split = col in ("token_accuracy", "exact_match")  # loss is the same either way
                part = df.loc[~decoded if split else slice(None), ["step", col]].dropna()
                label = run if len(runs) > 1 else _metric_name(col, lang)
                if col == "eval_loss" and len(runs) > 1:
                    label = f"{run} · {_metric_name(col, lang)}"
                # One run: the panel titles name the metrics, so the legend only tells train
                # loss (solid) from eval loss (dashed). Several runs: one entry per run.
                if len(runs) == 1:
                    show = col in ("loss", "eval_loss")
                else:
                    show = col == "eval_loss" or not legend_shown
                legend_shown = legend_shown or col != "eval_loss"
                fig.add_trace(
                    go.Scatter(x=part["step"], y=part[col], mode="lines", name=label,
                               line={"color": colour, "dash": dash}, legendgroup=label,
                               showlegend=show),
                    **at(c),
                )
                dec = df.loc[decoded, ["step", col]].dropna() if split else df.iloc[:0]
                if len(dec):
                    fig.add_trace(
                        go.Scatter(x=dec["step"], y=dec[col], mode="markers",
                                   name=word("decoded", lang), legendgroup="decoded",
                                   marker={"color": colour, "symbol": "diamond", "size": 9},
                                   showlegend=not decoded_shown),
                        **at(c),
                    )
                    decoded_shown = True
    fig.update_xaxes(title_text=word("train_step", lang))
    for c, metric in enumerate(metrics):  # fractions keep their whole scale: a 0.4% blip
        if metric in FRACTIONS:            # autoscaled to 0–0.004 looked like a spike
            fig.update_yaxes(range=[-0.02, 1.02], **at(c))
    legend = {**_BELOW, "y": -0.08} if stack else _BELOW
    fig.update_layout(title=word("curves", lang) if title is None else title,
                      height=220 * len(metrics) + 180 if stack else 440, legend=legend)
    return fig


def kernel_regression_figure(
    x_train: Any,
    y_train: Any,
    x_test: Any,
    y_true: Any | None,
    y_pred: Any,
    attention: Any,
    title: str | None = None,
    lang: str = "en",
    stack: bool = False,
) -> go.Figure:
    """Left: truth, prediction and training points. Right: the (n_test, n_train) weights.

    `stack=True` puts the weights under the fit instead (one column, fits a phone)."""
    xtr, ytr = as_array(x_train, "x_train", 1), as_array(y_train, "y_train", 1)
    xte, ypr = as_array(x_test, "x_test", 1), as_array(y_pred, "y_pred", 1)
    att = as_array(attention, "attention", 2)  # (n_test, n_train)
    yt = None if y_true is None else as_array(y_true, "y_true", 1)
    if len(ytr) != len(xtr) or att.shape[1] != len(xtr):
        raise ValueError(f"x_train ({len(xtr)}), y_train ({len(ytr)}) and the attention's "
                         f"columns ({att.shape[1]}) must have the same length.")
    lens = [len(ypr), att.shape[0]] + ([] if yt is None else [len(yt)])
    if any(n != len(xte) for n in lens):
        raise ValueError(f"x_test has {len(xte)} points but y_pred / y_true / attention rows "
                         f"have {lens}; they must match.")
    # Sort both axes by x so that a local kernel shows up as a band along the diagonal.
    i_tr, i_te = np.argsort(xtr, kind="stable"), np.argsort(xte, kind="stable")
    att = att[i_te][:, i_tr]  # (n_test, n_train), rows/cols in x order
    second = (2, 1) if stack else (1, 2)
    fig = make_subplots(rows=second[0], cols=second[1], vertical_spacing=0.15,
                        subplot_titles=[word("fit", lang), word("attention", lang)])
    fig.add_trace(go.Scatter(x=xtr, y=ytr, mode="markers", name=word("train_points", lang),
                             marker={"color": "gray", "size": 6, "opacity": 0.7}), 1, 1)
    if yt is not None:
        fig.add_trace(go.Scatter(x=xte[i_te], y=yt[i_te], mode="lines",
                                 name=word("truth", lang)), 1, 1)
    fig.add_trace(go.Scatter(x=xte[i_te], y=ypr[i_te], mode="lines", name=word("prediction", lang),
                             line={"dash": "dash"}), 1, 1)
    # Cells sit at the inputs' own x values, so %{x}/%{y} hover shows them without a per-cell
    # text array (with 500 training points that array made the figure ~1.5 MB). Repeated x
    # values cannot be cell centres: fall back to ranks then.
    xs, ys = xtr[i_tr], xte[i_te]
    if (np.diff(xs) > 0).all() and (np.diff(ys) > 0).all():
        hover = "x_test = %{y:.3f}<br>x_train = %{x:.3f}"
    else:
        xs, ys = np.arange(len(xs)), np.arange(len(ys))
        hover = "test #%{y}<br>train #%{x}"
    fig.add_trace(go.Heatmap(z=att, x=xs, y=ys, colorscale=WEIGHT_SCALE, zmin=0.0,
                             hovertemplate=hover + "<br>" + word("weight", lang)
                             + ": %{z:.4f}<extra></extra>"), *second)
    fig.update_xaxes(title_text="x", row=1, col=1)
    fig.update_xaxes(title_text=word("train_sorted", lang), row=second[0], col=second[1])
    fig.update_yaxes(title_text=word("test_sorted", lang), autorange="reversed", row=second[0],
                     col=second[1])
    legend = {**_BELOW, "y": -0.1} if stack else _BELOW
    fig.update_layout(title=word("kernel", lang) if title is None else title,
                      height=820 if stack else 480, legend=legend)
    return fig


# The benchmark figure lives in its own module; importing it here keeps `figures.complexity_figure`.
from .complexity_plot import LAYER_NAMES, complexity_figure  # noqa: E402, F401
