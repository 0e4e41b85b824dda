"""Complexity page: measured time against n for self-attention, RNN and CNN, beside the paper's table."""

from __future__ import annotations

import gradio as gr

from app_support.matrices import check_int
from transformer_lab.figures import complexity_figure
from transformer_lab.tables import complexity_table

from .common import friendly, lang_of, t


def render(sizes_text, d, lang="en"):
    """Run the small benchmark (app_support.complexity) and draw it on log-log axes."""
    from app_support.complexity import parse_sizes, run_complexity

    df = run_complexity(parse_sizes(sizes_text), check_int(d, "d", 8, 256))
    table = df.pivot_table(index=["layer", "d"], columns="n", values="ms").round(3).reset_index()
    table.columns = [str(c) if not isinstance(c, int) else f"n={c} (ms)" for c in table.columns]
    return complexity_figure(df, lang=lang), table, ""


def build() -> None:
    """Lay out the page inside the current gr.Tab and wire its events."""
    gr.Markdown(t("cx.intro"))
    gr.Dataframe(complexity_table(), label=t("cx.table"), interactive=False)
    with gr.Row():
        sizes = gr.Textbox("128, 256, 512, 1024", label=t("cx.sizes"))
        d = gr.Number(64, precision=0, label=t("cx.d"))
        run = gr.Button(t("cx.run"), variant="primary", elem_id="cx-run")
    status = gr.Markdown(elem_id="cx-status")
    plot = gr.Plot(label=t("cx.plot"), elem_id="cx-plot")
    measured = gr.Dataframe(label=t("cx.measured"), interactive=False)

    @friendly(3)
    def on_run(sizes, d, request: gr.Request):
        return render(sizes, d, lang_of(request))

    # The benchmark takes the CPU for seconds: it queues with training, not with grading.
    run.click(on_run, [sizes, d], [plot, measured, status], api_name="complexity",
              concurrency_id="train")  # fmt: skip
