"""One attention computation stage by stage (Q·Kᵀ → ÷√d → mask → softmax → ·V), with the terms
behind every cell, for the step-by-step view in the spirit of Transformer Explainer."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go

from .tables import as_array

__all__ = ["Stage", "attention_stages", "stage_figure"]

_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
MAX_TERMS = 6  # a hover lists at most this many products, then "+ …"


@dataclass
class Stage:
    """One step: its matrix, what each cell shows, the hover terms that made it, masked cells."""

    key: str  # "scores" | "scaled" | "masked" | "weights" | "output"
    values: np.ndarray  # (n, m) or (n, d_v); nan where masked
    shown: list[list[str]]  # cell text
    terms: list[list[str]]  # hover: how the cell was computed
    rows: list[str]
    cols: list[str]


def _sub(name: str, i: int) -> str:
    return f"{name}{str(i).translate(_SUB)}"  # 0-based, like the tables (q0, k0)


def _num(x: float) -> str:
    return f"{x:.4g}" if abs(x - round(x)) > 1e-9 else str(int(round(x)))


def _sum_terms(pairs: list[tuple[float, float]]) -> str:
    shown = [f"{_num(a)}·{_num(b)}" for a, b in pairs[:MAX_TERMS]]
    return " + ".join(shown) + (" + …" if len(pairs) > MAX_TERMS else "")


def attention_stages(q: Any, k: Any, v: Any, scale: bool = True, keep: Any = None) -> list[Stage]:
    """Stages of softmax(QKᵀ/√d)V for one example: q (n, d), k (m, d), v (m, d_v), keep (n, m)
    bool (True = may attend) or None. Fully masked rows get weight 0 (as masked_softmax does)."""
    q, k, v = (as_array(x, name, ndim=2).astype(float) for x, name in ((q, "q"), (k, "k"), (v, "v")))
    n, d = q.shape
    m = k.shape[0]
    if k.shape[1] != d or v.shape[0] != m:
        raise ValueError(f"shapes do not fit: Q {q.shape}, K {k.shape}, V {v.shape}")
    keep = np.ones((n, m), bool) if keep is None else as_array(keep, "keep", ndim=2).astype(bool)
    qs, ks = [_sub("q", i) for i in range(n)], [_sub("k", j) for j in range(m)]
    vs = [f"out[{c}]" for c in range(v.shape[1])]
    scores = q @ k.T  # (n, m)
    root = math.sqrt(d) if scale else 1.0
    scaled = scores / root
    masked = np.where(keep, scaled, np.nan)  # nan = −∞ before softmax
    safe = np.where(keep, scaled, -np.inf)
    top = np.max(np.where(keep, safe, -1e300), axis=1, keepdims=True)
    ex = np.where(keep, np.exp(safe - top), 0.0)
    total = ex.sum(axis=1, keepdims=True)
    weights = np.divide(ex, total, out=np.zeros_like(ex), where=total > 0)  # (n, m)
    out = weights @ v  # (n, d_v)

    def grid(f, rows, cols):
        return [[f(i, j) for j in range(cols)] for i in range(rows)]

    dot = grid(lambda i, j: f"{qs[i]}·{ks[j]} = {_sum_terms(list(zip(q[i], k[j], strict=True)))}"
               f" = {_num(scores[i, j])}", n, m)
    div = grid(lambda i, j: f"{_num(scores[i, j])} ÷ √{d} = {_num(scaled[i, j])}" if scale
               else f"{_num(scores[i, j])} (no scaling)", n, m)
    msk = grid(lambda i, j: f"{ks[j]} visible to {qs[i]}: {_num(scaled[i, j])}" if keep[i, j]
               else f"{ks[j]} hidden from {qs[i]}: −∞", n, m)

    def soft(i, j):
        if not keep[i, j]:
            return f"e^(−∞) = 0: {ks[j]} gets no weight"
        parts = [f"e^{_num(scaled[i, c])}" for c in range(m) if keep[i, c]]
        den = " + ".join(parts[:MAX_TERMS]) + (" + …" if len(parts) > MAX_TERMS else "")
        return f"e^{_num(scaled[i, j])} / ({den}) = {weights[i, j]:.4f}"

    sm = grid(soft, n, m)
    pv = grid(lambda i, c: f"{_sum_terms(list(zip(weights[i], v[:, c], strict=True)))}"
              f" = {_num(out[i, c])}", n, v.shape[1])

    def text(a):
        return [["−∞" if np.isnan(x) else _num(float(x)) if abs(x) >= 1e-3 or x == 0 else f"{x:.1e}"
                 for x in row] for row in a]

    w_text = [[f"{x:.2f}" for x in row] for row in weights]
    return [Stage("scores", scores, text(scores), dot, qs, ks),
            Stage("scaled", scaled, text(scaled), div, qs, ks),
            Stage("masked", masked, text(masked), msk, qs, ks),
            Stage("weights", np.where(keep, weights, np.nan), w_text, sm, qs, ks),
            Stage("output", out, text(out), pv, qs, vs)]


def stage_figure(stage: Stage, title: str, height: int = 260) -> go.Figure:
    """A small heatmap of one stage; masked cells are grey with −∞, the hover shows the terms."""
    z = stage.values
    fig = go.Figure(go.Heatmap(
        z=z, x=list(range(z.shape[1])), y=list(range(z.shape[0])), text=stage.shown,
        texttemplate="%{text}", customdata=stage.terms, hovertemplate="%{customdata}<extra></extra>",
        colorscale="Blues", showscale=False, hoverongaps=True, xgap=2, ygap=2,
    ))
    # No grid or zero lines: over a masked (empty, grey) cell they struck through its −∞.
    fig.update_xaxes(tickmode="array", tickvals=list(range(z.shape[1])), ticktext=stage.cols,
                     side="top", showgrid=False, zeroline=False)
    fig.update_yaxes(tickmode="array", tickvals=list(range(z.shape[0])), ticktext=stage.rows,
                     autorange="reversed", showgrid=False, zeroline=False)
    # Masked cells are nan: plotly leaves them empty, so the grey background marks them,
    # and an annotation writes the −∞ that softmax sees there.
    for i, j in zip(*np.nonzero(np.isnan(z)), strict=True):
        fig.add_annotation(x=int(j), y=int(i), text="−∞", showarrow=False,
                           font={"color": "#444"})
    fig.update_layout(title={"text": title, "font": {"size": 13}}, height=height,
                      margin={"l": 40, "r": 10, "t": 60, "b": 10}, plot_bgcolor="#c8c8c8")
    return fig
