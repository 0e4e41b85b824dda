"""Attention as pictures: one (queries × keys) heatmap, a layers × heads grid, an alignment.

Tokens label the ticks and the hover; the cells sit on integer positions, so a sentence with a
repeated word keeps every column. Positional, training and kernel figures are in figures.py.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .tables import as_array, check_labels, normalise_lang, word

WEIGHT_SCALE = "Blues"  # white = no attention, dark = much: reads like ink on paper
MAX_GRID = 8  # layers and heads per attention grid; more panels are too small to read


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


def _axis_titles(fig: go.Figure, x_title: str, y_title: str, lang: str) -> None:
    """Name the axes. Plotly turns a y-axis title sideways, which suits a Latin word but not
    Chinese ("查询" lay on its side): there the rows' name sits level above the row labels,
    like the corner of a matrix table, with an arrow down the rows."""
    if normalise_lang(lang) != "zh":
        fig.update_layout(xaxis_title=x_title, yaxis_title=y_title)
        return
    fig.update_layout(xaxis_title=x_title, yaxis_title=None)
    fig.add_annotation(text=f"{y_title} ↓", textangle=0, showarrow=False, xref="paper",
                       yref="paper", x=0, y=1, xanchor="right", yanchor="bottom", xshift=-4,
                       name="y-title")


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
    fig.update_layout(title=word("attention", lang) if title is None else title)
    _axis_titles(fig, word("key", lang), word("query", lang), lang)
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

    `cols` asks for the narrow (phone) layout: at most `cols` panels per row, a layer's heads
    wrapping onto several rows (each layer still starts a new row), small margins and the colour
    bar beneath the panels, where it takes no width from them. Panels are numbered layer by
    layer, head by head (the k-th heatmap is on axes x{k}/y{k}) whatever the wrapping.

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
    narrow = cols is not None  # a phone: the colour bar goes under the panels
    per_layer = -(-h // c)  # rows each layer takes
    rows = L * per_layer
    specs = [[{} if (r % per_layer) * c + j < h else None for j in range(c)] for r in range(rows)]
    titles = [word("layer_head", lang).format(layer=i + 1, head=j + 1)
              for i in range(L) for j in range(h)]
    # Room between rows in pixels (a title and, when wrapped, tick labels), as a share of the plot.
    gap = 40 if c == h else 70
    fig = make_subplots(rows=rows, cols=c, specs=specs, subplot_titles=titles,
                        shared_xaxes=c == h, shared_yaxes=True, horizontal_spacing=0.04 if narrow
                        else 0.02, vertical_spacing=min(0.3, gap / (170 * rows)))
    for i in range(L):
        for j in range(h):
            fig.add_trace(_weight_trace(stack[i, j], q, k, lang, coloraxis="coloraxis"),
                          row=i * per_layer + j // c + 1, col=j % c + 1)
    _token_axes(fig, q, k)
    top = float(np.nanmax(stack)) if zmax is None else zmax
    bar = {"orientation": "h", "y": -40 / (200 * rows), "yanchor": "top", "thickness": 12}
    margin = {"margin": {"l": 50, "r": 10, "t": 90, "b": 40}} if narrow else {}
    fig.update_layout(title=word("attention", lang) if title is None else title,
                      coloraxis={"colorscale": WEIGHT_SCALE, "cmin": 0.0, "cmax": top,
                                 **({"colorbar": bar} if narrow else {})},
                      height=140 + (200 if narrow else 170) * rows, **margin)
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
    fig.layout.annotations = [a for a in fig.layout.annotations if a.name != "y-title"]
    _axis_titles(fig, word("source", lang), word("output", lang), lang)
    return fig
