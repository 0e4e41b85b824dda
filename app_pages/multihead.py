"""Multi-head explorer page: each head's weights side by side and the shape at each step."""

from __future__ import annotations

import gradio as gr

from app_support.matrices import check_int
from transformer_lab.figures import attention_grid
from transformer_lab.tables import multihead_shape_steps, shapes_table

from .common import friendly, lang_of, t


def render(embed_dim, heads, tokens, mask, valid_len, seed, lang="en"):
    """Weights of a random multi-head layer as a 1 × heads grid, plus the shapes table."""
    from app_support.explore import MAX_EMBED, MAX_HEADS, MAX_TOKENS, multihead_weights

    e = check_int(embed_dim, "embed_dim", 1, MAX_EMBED)
    h = check_int(heads, "heads", 1, MAX_HEADS)
    n = check_int(tokens, "tokens", 1, MAX_TOKENS)
    valid = check_int(valid_len, "valid length", 1, n) if mask == "valid" else None
    weights = multihead_weights(e, h, n, mask, valid, check_int(seed, "seed", 0, 10**6))  # (h, n, n)
    labels = [f"x{i}" for i in range(n)]
    grid = attention_grid([weights], labels, labels, lang=lang)
    return grid, shapes_table(multihead_shape_steps(1, n, n, e, h, lang=lang), lang=lang), ""


def build() -> None:
    """Lay out the page inside the current gr.Tab and wire its events."""
    gr.Markdown(t("mh.intro"))
    with gr.Row():
        embed = gr.Number(16, precision=0, label=t("mh.embed"), elem_id="mh-embed")
        heads = gr.Number(4, precision=0, label=t("mh.heads"), elem_id="mh-heads")
        tokens = gr.Slider(1, 24, value=6, step=1, label=t("mh.tokens"))
        mask = gr.Radio([(t("mask.none"), "none"), (t("mask.valid"), "valid"),
                         (t("mask.causal"), "causal")], value="none", label=t("mask"))  # fmt: skip
        valid_len = gr.Number(3, precision=0, label=t("valid_len"))
        seed = gr.Number(0, precision=0, label=t("seed"))
    go = gr.Button(t("compute"), variant="primary", elem_id="mh-compute")
    status = gr.Markdown(elem_id="mh-status")
    grid = gr.Plot(label=t("mh.grid"), elem_id="mh-grid")
    shapes = gr.Dataframe(label=t("mh.shapes"), interactive=False)

    @friendly(3)
    def on_compute(embed, heads, tokens, mask, valid_len, seed, request: gr.Request):
        return render(embed, heads, tokens, mask, valid_len, seed, lang_of(request))

    go.click(on_compute, [embed, heads, tokens, mask, valid_len, seed], [grid, shapes, status],
             api_name="multihead", concurrency_id="play")  # fmt: skip
