"""Attention pooling page: Nadaraya–Watson kernel regression, fixed w vs learned w."""

from __future__ import annotations

import gradio as gr

from app_support.matrices import check_float, check_int
from transformer_lab.figures import kernel_regression_figure

from .common import friendly, lang_of, t


def render(n_train, noise, w, steps, lr, seed, lang="en"):
    """Fit both variants (app_support.explore.attention_pooling) and draw each one."""
    from app_support.explore import attention_pooling

    r = attention_pooling(
        check_int(n_train, "training points", 2, 500), check_float(noise, "noise", 0.0, 5.0),
        check_float(w, "w", 0.01, 100.0), check_int(steps, "steps", 0, 200),
        check_float(lr, "learning rate", 1e-4, 10.0), check_int(seed, "seed", 0, 10**6),
    )  # fmt: skip
    zh = lang == "zh"
    fixed_title = f"{'非参数，w' if zh else 'non-parametric, w'} = {float(w):g}"
    learned_title = f"{'学习得到的 w' if zh else 'learned w'} = {r.learned_w:.3f}"
    return (
        kernel_regression_figure(r.x_train, r.y_train, r.x_test, r.y_truth, r.fixed_pred,
                                 r.fixed_attn, title=fixed_title, lang=lang),
        kernel_regression_figure(r.x_train, r.y_train, r.x_test, r.y_truth, r.learned_pred,
                                 r.learned_attn, title=learned_title, lang=lang),
        r.history.round(4),
        "",
    )  # fmt: skip


def build() -> None:
    """Lay out the page inside the current gr.Tab and wire its events."""
    gr.Markdown(t("pooling.intro"))
    with gr.Row():
        n_train = gr.Slider(2, 500, value=50, step=1, label=t("pooling.n"))
        noise = gr.Slider(0.0, 2.0, value=0.5, step=0.05, label=t("pooling.noise"))
        w = gr.Slider(0.1, 20.0, value=1.0, step=0.1, label=t("pooling.w"))
    with gr.Row():
        steps = gr.Slider(0, 200, value=5, step=1, label=t("pooling.steps"))
        lr = gr.Number(0.5, label=t("pooling.lr"))
        seed = gr.Number(0, precision=0, label=t("seed"))
    go = gr.Button(t("compute"), variant="primary", elem_id="pool-compute")
    status = gr.Markdown(elem_id="pool-status")
    fixed = gr.Plot(label=t("pooling.fixed"), elem_id="pool-fixed")
    learned = gr.Plot(label=t("pooling.learned"))
    history = gr.Dataframe(label=t("pooling.history"), interactive=False)

    @friendly(4)
    def on_compute(n_train, noise, w, steps, lr, seed, request: gr.Request):
        return render(n_train, noise, w, steps, lr, seed, lang_of(request))

    go.click(on_compute, [n_train, noise, w, steps, lr, seed], [fixed, learned, history, status],
             api_name="pooling", concurrency_id="play")  # fmt: skip
