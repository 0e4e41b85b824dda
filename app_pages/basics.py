"""Attention basics page: Q, K, V in; scores, weights (heatmap and table) and output out."""

from __future__ import annotations

import gradio as gr

from app_support.matrices import LESSON_K, LESSON_Q, LESSON_V, check_int
from transformer_lab.figures import attention_heatmap
from transformer_lab.tables import matrix_table, shapes_table

from .common import friendly, lang_of, t

# torch is imported on first use (app_support.basics), so the app starts fast.
LESSON = (LESSON_Q, LESSON_K, LESSON_V)


def render(q, k, v, scoring, scale, mask, valid_len, seed, lang="en"):
    """Compute with app_support.basics and turn the result into the page's tables and figure."""
    from app_support.basics import attention_basics

    valid = check_int(valid_len, "valid length", 1, 16) if mask == "valid" else None
    r = attention_basics(q, k, v, scoring, bool(scale), mask, valid, check_int(seed, "seed", 0, 10**6))
    n, m = r.weights.shape
    qs, ks = [f"q{i}" for i in range(n)], [f"k{j}" for j in range(m)]
    out_cols = [f"out[{j}]" for j in range(r.output.shape[1])]
    return (
        shapes_table(r.shapes, lang=lang),
        matrix_table(r.scores, qs, ks, lang=lang),
        matrix_table(r.weights, qs, ks, lang=lang),
        attention_heatmap(r.weights, qs, ks, show_values=True, lang=lang),
        matrix_table(r.output, qs, out_cols, lang=lang),
        "",
    )


def build() -> None:
    """Lay out the page inside the current gr.Tab and wire its events."""
    gr.Markdown(t("basics.intro"))
    with gr.Row():
        q = gr.Textbox(LESSON[0], lines=4, label=t("basics.q"), elem_id="basics-q")
        k = gr.Textbox(LESSON[1], lines=4, label=t("basics.k"), elem_id="basics-k")
        v = gr.Textbox(LESSON[2], lines=4, label=t("basics.v"), elem_id="basics-v")
    with gr.Row():
        scoring = gr.Radio([(t("basics.dot"), "dot"), (t("basics.additive"), "additive")],
                           value="dot", label=t("basics.scoring"))  # fmt: skip
        scale = gr.Checkbox(True, label=t("basics.scale"))
        mask = gr.Radio([(t("mask.none"), "none"), (t("mask.valid"), "valid"),
                         (t("mask.causal"), "causal")], value="none", label=t("mask"))  # fmt: skip
        valid_len = gr.Number(2, precision=0, label=t("valid_len"))
        seed = gr.Number(0, precision=0, label=t("seed"))
    with gr.Row():
        compute = gr.Button(t("compute"), variant="primary", elem_id="basics-compute")
        randomise = gr.Button(t("randomise"))
        lesson = gr.Button(t("lesson"))
    status = gr.Markdown(elem_id="basics-status")
    shapes = gr.Dataframe(label=t("basics.shapes"), interactive=False)
    with gr.Row():
        scores = gr.Dataframe(label=t("basics.scores"), interactive=False)
        weights = gr.Dataframe(label=t("basics.weights"), interactive=False, elem_id="basics-weights")
    with gr.Row():
        heatmap = gr.Plot(label=t("heatmap"), elem_id="basics-heatmap")
        output = gr.Dataframe(label=t("basics.output"), interactive=False)

    inputs = [q, k, v, scoring, scale, mask, valid_len, seed]
    outputs = [shapes, scores, weights, heatmap, output, status]

    @friendly(len(outputs))
    def on_compute(q, k, v, scoring, scale, mask, valid_len, seed, request: gr.Request):
        return render(q, k, v, scoring, scale, mask, valid_len, seed, lang_of(request))

    @friendly(4)
    def on_randomise(seed, request: gr.Request):
        from app_support.basics import random_qkv

        return (*random_qkv(seed=check_int(seed, "seed", 0, 10**6)), "")

    event = dict(fn=on_compute, inputs=inputs, outputs=outputs, concurrency_id="play")
    compute.click(**event, api_name="attention_basics")
    randomise.click(on_randomise, [seed], [q, k, v, status], api_visibility="private").then(
        **event, api_visibility="private"
    )
    lesson.click(lambda: (*LESSON, ""), None, [q, k, v, status], api_visibility="private").then(
        **event, api_visibility="private"
    )
