"""Plotly figures for attention maps, positional encodings, training curves and benchmarks."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.colors import qualitative
from plotly.subplots import make_subplots

from .tables import (
    as_array,
    check_labels,
    collect_runs,
    positional_frame,
    word,
)

WEIGHT_SCALE = "Blues"  # white = no attention, dark = much: reads like ink on paper
SIGNED_SCALE = "RdBu"  # for values in [-1, 1] such as sin/cos
MAX_GRID = 8  # layers and heads per attention grid; more panels are too small to read
# Figures set a height but no width: plotly (and gr.Plot, responsive) then fill the container,
# where a fixed width overflows a narrow Gradio column. Legends go below the panels: on the
# right they collide with colour bars and squeeze the panels.
_BELOW = {"orientation": "h", "x": 0.0, "xanchor": "left", "y": -0.22, "yanchor": "top"}
_KNOWN_METRICS = ("loss", "eval_loss", "token_accuracy", "exact_match", "lr", "seconds")
_ALIASES = {"token_acc": "token_accuracy", "exact_acc": "exact_match"}  # train.py's names


def _esc(labels: Sequence[str]) -> list[str]:
    # Plotly reads tick and hover text as pseudo-HTML, so "<eos>" would vanish as an unknown tag.
    return [html.escape(s, quote=False) for s in labels]


def _weight_trace(
    w: np.ndarray, q: list[str], k: list[str], lang: str, show_values: bool = False, **kw: Any
) -> go.Heatmap:
    """Heatmap of a (n, m) matrix on integer positions, with token names in the hover."""
    n, m = w.shape
    # Integer x/y positions, not token strings: plotly merges repeated categories, so a sentence
    # with "the" twice would lose a column. Tokens go on the ticks instead (see _token_axes).
    hover = np.array(
        [[f"{word('query', lang)}: {qi}<br>{word('key', lang)}: {kj}" for kj in _esc(k)]
         for qi in _esc(q)]
    )
    return go.Heatmap(
        z=w,
        x=list(range(m)),
        y=list(range(n)),
        text=hover,
        hovertemplate="%{text}<br>" + word("weight", lang) + ": %{z:.4f}<extra></extra>",
        texttemplate="%{z:.2f}" if show_values else None,
        **kw,
    )


def _token_axes(fig: go.Figure, q: list[str], k: list[str], **where: Any) -> None:
    """Put token names on the ticks; queries read top to bottom like the rows of a matrix."""
    fig.update_xaxes(tickmode="array", tickvals=list(range(len(k))), ticktext=_esc(k), **where)
    fig.update_yaxes(
        tickmode="array", tickvals=list(range(len(q))), ticktext=_esc(q), autorange="reversed",
        **where,
    )


def attention_heatmap(
    weights: Any,
    query_labels: Sequence[Any] | None = None,
    key_labels: Sequence[Any] | None = None,
    title: str | None = None,
    show_values: bool = False,
    zmin: float = 0.0,
    zmax: float = 1.0,
    lang: str = "en",
) -> go.Figure:
    """One (n_queries, n_keys) attention matrix: row i = how query i spreads over the keys."""
    w = as_array(weights, "weights", ndim=2)  # (n, m)
    q = check_labels(query_labels, w.shape[0], "query_labels")
    k = check_labels(key_labels, w.shape[1], "key_labels")
    fig = go.Figure(_weight_trace(w, q, k, lang, show_values, zmin=zmin, zmax=zmax,
                                  colorscale=WEIGHT_SCALE))
    _token_axes(fig, q, k)
    fig.update_layout(
        title=word("attention", lang) if title is None else title,
        xaxis_title=word("key", lang),
        yaxis_title=word("query", lang),
    )
    return fig


def attention_grid(
    maps: Any,
    query_labels: Sequence[Any] | None = None,
    key_labels: Sequence[Any] | None = None,
    title: str | None = None,
    zmax: float | None = 1.0,
    lang: str = "en",
    cols: int | None = None,
) -> go.Figure:
    """Layers (rows) x heads (columns) of attention maps on one shared colour scale.

    `cols` caps the panels per row (a phone fits two): a layer's heads then wrap onto several
    rows, and each layer still starts a new row. Panels are numbered layer by layer, head by head
    (the k-th heatmap is on axes x{k}/y{k}) whatever the wrapping.

    `maps` is a list with one (h, n, m) tensor per layer, or a (L, h, n, m) tensor. For a model's
    `attention_maps(...)["cross"]` (each (B, h, T, S)) pick one example: `[a[0] for a in maps]`.
    `zmax=None` scales the colours to the largest weight shown instead of 1.
    """
    if isinstance(maps, (list, tuple)):
        if not maps:
            raise ValueError("maps is empty: give at least one layer of attention weights.")
        layers = [as_array(a, f"maps[{i}]") for i, a in enumerate(maps)]
        for i, a in enumerate(layers):
            if a.ndim != 3:
                hint = " Pick one example first, e.g. [a[0] for a in maps]." if a.ndim == 4 else ""
                raise ValueError(f"maps[{i}] must be (heads, n, m), got {a.shape}.{hint}")
            if a.shape != layers[0].shape:
                raise ValueError(f"All layers need the same shape: {layers[0].shape} vs {a.shape}.")
        stack = np.stack(layers)  # (L, h, n, m)
    else:
        stack = as_array(maps, "maps", ndim=4)  # (L, h, n, m)
    L, h, n, m = stack.shape
    if not (1 <= L <= MAX_GRID and 1 <= h <= MAX_GRID):
        raise ValueError(
            f"A grid shows at most {MAX_GRID} layers x {MAX_GRID} heads, got {L} x {h}; "
            "select some layers or heads first."
        )
    q = check_labels(query_labels, n, "query_labels")
    k = check_labels(key_labels, m, "key_labels")
    if cols is not None and (not isinstance(cols, int) or cols < 1):
        raise ValueError(f"cols must be a positive whole number or None, got {cols!r}.")
    c = h if cols is None else min(cols, h)
    per_layer = -(-h // c)  # rows each layer takes
    rows = L * per_layer  # the colour bar goes under the panels when they wrap (a phone)
    specs = [[{} if (r % per_layer) * c + j < h else None for j in range(c)] for r in range(rows)]
    titles = [word("layer_head", lang).format(layer=i + 1, head=j + 1)
              for i in range(L) for j in range(h)]
    # Room between rows in pixels (a title and, when wrapped, tick labels), as a share of the plot.
    gap = 40 if c == h else 70
    fig = make_subplots(rows=rows, cols=c, specs=specs, subplot_titles=titles,
                        shared_xaxes=c == h, shared_yaxes=True, horizontal_spacing=0.04 if c < h
                        else 0.02, vertical_spacing=min(0.3, gap / (170 * rows)))
    for i in range(L):
        for j in range(h):
            fig.add_trace(_weight_trace(stack[i, j], q, k, lang, coloraxis="coloraxis"),
                          row=i * per_layer + j // c + 1, col=j % c + 1)
    _token_axes(fig, q, k)
    top = float(np.nanmax(stack)) if zmax is None else zmax
    bar = {"orientation": "h", "y": -40 / (200 * rows), "yanchor": "top", "thickness": 12}
    narrow = {"margin": {"l": 50, "r": 10, "t": 90, "b": 40}} if c < h else {}  # a phone
    fig.update_layout(title=word("attention", lang) if title is None else title,
                      coloraxis={"colorscale": WEIGHT_SCALE, "cmin": 0.0, "cmax": top,
                                 **({"colorbar": bar} if narrow else {})},
                      height=140 + (200 if narrow else 170) * rows, **narrow)
    return fig


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


def alignment_heatmap(
    cross_attention: Any,
    source_tokens: Sequence[Any],
    output_tokens: Sequence[Any],
    head: int | None = None,
    title: str | None = None,
    lang: str = "en",
) -> go.Figure:
    """Which source tokens each output token attended to, (T_out, S) or (h, T_out, S).

    For several heads, `head` picks one; None averages them (each row still sums to 1).
    """
    att = as_array(cross_attention, "cross_attention", ndim=(2, 3))
    if att.ndim == 3:  # (h, T_out, S)
        if head is None:
            att = att.mean(axis=0)
        elif isinstance(head, int) and 0 <= head < att.shape[0]:
            att = att[head]
        else:
            raise ValueError(f"head must be None or 0..{att.shape[0] - 1}, got {head!r}.")
    fig = attention_heatmap(att, output_tokens, source_tokens, lang=lang,
                            title=word("alignment", lang) if title is None else title)
    fig.update_layout(xaxis_title=word("source", lang), yaxis_title=word("output", lang))
    return fig


# The benchmark figure lives in its own module; importing it here keeps `figures.complexity_figure`.
from .complexity_plot import LAYER_NAMES, complexity_figure  # noqa: E402, F401
