"""The browser's width, for figures drawn on the server: a phone gets its heads in two columns."""

from __future__ import annotations

import gradio as gr

PANEL_PX = 150  # narrowest readable thumbnail: its title "layer 1 · head 1" and a few tick labels
# Below the phone CSS's breakpoint (style.py) the colour bar goes under the panels even when every
# head fits in one row: beside them, with the desktop's margins, it left two heads ~80 px each
# at 390 px and their titles ran into each other ("layer 1 · headayer 1 · head 2", issue 26).
PHONE_PX = 600
PAGE_MARGIN_PX = 60  # the page's padding and the figure's axis labels
TICK_PX = 26  # horizontal room one tick label needs ("<eos>" at plotly's 12 px font)
MAX_ROW_TICKS = 12  # tokens above which a thumbnail's row labels (≈14 px each) would collide


def width_input() -> gr.Number:
    """A hidden input that the event's js (`with_width`) fills with window.innerWidth."""
    return gr.Number(0, visible=False)


def with_width(n_inputs: int) -> str:
    """js for an event whose last of `n_inputs` inputs is `width_input()`: put the window's
    width there before the call goes to the server (the other inputs pass unchanged)."""
    last = n_inputs - 1
    return (f"(...a) => {{ const v = a.slice(0, {n_inputs}); v[{last}] = window.innerWidth; "
            "return v; }")


def grid_columns(width: float | None, heads: int) -> int | None:
    """Panels per row for `heads` thumbnails on a screen `width` px wide (attention_grid's phone
    layout, colour bar beneath); None (one row per layer, colour bar beside it) where every head
    fits side by side on a wider screen, or when the width is unknown (an API call)."""
    if not width or width <= 0:
        return None
    fit = max(1, int((width - PAGE_MARGIN_PX) // PANEL_PX))
    if width < PHONE_PX:
        return min(fit, heads)
    return None if fit >= heads else fit


SIDEWAYS_PX = 16  # room one tick label needs on its side (10 px font; the panels are narrower than estimated)


def tick_px(width: float | None, heads: int, tokens: int) -> float:
    """Horizontal room per key token in one thumbnail, in pixels."""
    cols = grid_columns(width, heads) or heads
    usable = (width - PAGE_MARGIN_PX) if width and width > 0 else 1100
    return usable / cols / max(tokens, 1)


def _every(labels: list, step: int) -> tuple[list[int], list]:
    at = list(range(0, len(labels), step))
    return at, [labels[i] for i in at]


def head_grid(layer_maps, q, k, lang: str, width: float | None = None):
    """attention_grid for a screen `width` px wide: a phone gets two heads per row. Key labels
    that would pile up turn on their side, and where even that is too tight only every
    second (third…) key is labelled; rows past MAX_ROW_TICKS likewise. The keys stay named on
    a phone (issue 20: Train's grids had lost them there)."""
    from transformer_lab.attention_plot import attention_grid

    h = int(layer_maps[0].shape[0])
    fig = attention_grid(layer_maps, q, k, lang=lang, cols=grid_columns(width, h))
    room = tick_px(width, h, len(k))
    if room < TICK_PX:
        step = max(1, -(-SIDEWAYS_PX // max(int(room), 1)))  # every step-th key fits on its side
        at, text = _every(list(fig.layout.xaxis.ticktext), step)  # already escaped
        fig.update_xaxes(tickangle=-90, tickfont={"size": 10}, tickvals=at, ticktext=text)
    if len(q) > MAX_ROW_TICKS:
        at, text = _every(list(fig.layout.yaxis.ticktext), -(-len(q) // MAX_ROW_TICKS))
        fig.update_yaxes(tickvals=at, ticktext=text)
    return fig
