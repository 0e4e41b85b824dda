"""Attention pooling page: Nadaraya–Watson kernel regression, fixed w vs learned w."""

from __future__ import annotations

import gradio as gr

from webapp.compute.matrices import check_float, check_int
from webapp.pages import links
from webapp.pages.common import friendly, lang_of, quiet, t, tr


def loss_curve(history, lang: str = "en"):
    """The loss of the learned w by SGD step, with w itself on a second axis."""
    import plotly.graph_objects as go

    fig = go.Figure()
    fig.add_trace(go.Scatter(x=history["step"], y=history["loss"], mode="lines+markers",
                             name=tr("cols.loss", lang)))
    fig.add_trace(go.Scatter(x=history["step"], y=history["w"], mode="lines+markers", name="w",
                             yaxis="y2", line={"dash": "dot"}))
    fig.update_layout(title=tr("pool.curve_title", lang), height=320,
                      xaxis_title=tr("cols.step", lang), yaxis_title=tr("cols.loss", lang),
                      yaxis2={"title": "w", "overlaying": "y", "side": "right"},
                      legend={"orientation": "h", "y": -0.25})
    if len(history) == 1:  # 0 steps: one starting point, on axes around it, and saying so
        loss, w = float(history["loss"].iloc[0]), float(history["w"].iloc[0])
        # loss at 2/3 of its axis's height and w at 1/3: two dots, not one hiding the other
        fig.update_traces(marker={"size": 10})
        fig.update_layout(
            xaxis={"range": [-0.5, 0.5], "tickvals": [0]},
            yaxis={"range": [0, 1.5 * loss if loss > 0 else 1]},
            yaxis2={"range": [0, 3 * w if w > 0 else 1]},
            annotations=[{"text": tr("pool.no_step_note", lang), "xref": "paper", "yref": "paper",
                          "x": 0.5, "y": 1.0, "yanchor": "bottom", "showarrow": False}],
        )
    return fig


def pool_caption(history, lang: str = "en") -> str:
    """What to notice: w's growth over the steps, or with 0 steps that none was taken (the
    learned w is then its starting value, written as the panel's title writes it)."""
    ws = history["w"].tolist()
    if len(ws) == 1:
        return tr("pool.caption_no_steps", lang, w0=f"{ws[0]:.3f}",
                  loss=f"{float(history['loss'].iloc[0]):.3f}")
    return tr("pool.caption", lang, w0=f"{ws[0]:.3f}", w1=f"{ws[-1]:.3f}")


def render(n_train, noise, w, steps, lr, seed, lang="en", exact: bool = False):
    """Fit both variants (webapp.compute.explore.attention_pooling) and draw each one. The
    history is rounded to 4 decimals for the API's table; ``exact`` keeps it unrounded, so a
    caption rounds w once, as the learned panel's title does (not 16.203 beside 16.202)."""
    from transformer_lab.figures import kernel_regression_figure
    from webapp.compute.explore import attention_pooling

    r = attention_pooling(
        check_int(n_train, "training_points", 2, 500), check_float(noise, "noise", 0.0, 5.0),
        check_float(w, "w", 0.01, 100.0), check_int(steps, "steps", 0, 200),
        check_float(lr, "learning_rate", 1e-4, 10.0), check_int(seed, "seed", 0, 10**6),
    )
    fixed_title = tr("pooling.fixed_title", lang, w=float(w))
    learned_title = tr("pooling.learned_title", lang, w=r.learned_w)
    return (
        kernel_regression_figure(r.x_train, r.y_train, r.x_test, r.y_truth, r.fixed_pred,
                                 r.fixed_attn, title=fixed_title, lang=lang, stack=True),
        kernel_regression_figure(r.x_train, r.y_train, r.x_test, r.y_truth, r.learned_pred,
                                 r.learned_attn, title=learned_title, lang=lang, stack=True),
        r.history if exact else r.history.round(4),
        "",
    )


def build(lesson_links: links.LessonLinks) -> None:
    """Lay out the page inside the current gr.Tab and wire its events."""
    gr.Markdown(t("pooling.intro"))
    with gr.Row():
        n_train = gr.Slider(2, 500, value=50, step=1, label=t("pooling.n"), min_width=160)
        noise = gr.Slider(0.0, 2.0, value=0.5, step=0.05, label=t("pooling.noise"), min_width=160)
        w = gr.Slider(0.1, 20.0, value=1.0, step=0.1, label=t("pooling.w"), min_width=160)
    with gr.Row():
        steps = gr.Slider(0, 200, value=5, step=1, label=t("pooling.steps"), min_width=160,
                          elem_id="pool-steps")
        lr = gr.Number(0.5, label=t("pooling.lr"), min_width=100)
        seed = gr.Number(0, precision=0, label=t("seed"), min_width=100)
    go = gr.Button(t("compute"), variant="primary", elem_id="pool-compute")
    lesson_links.register("pooling", {"n": n_train, "noise": noise, "w": w, "steps": steps,
                                      "lr": (lr, links.Range(1e-4, 10.0)),  # render's check_float
                                      "seed": (seed, links.Range(0, 10**6, integer=True))})
    status = gr.Markdown(elem_id="pool-status")
    with gr.Row():
        fixed = gr.Plot(label=t("pooling.fixed"), elem_id="pool-fixed", min_width=320)
        learned = gr.Plot(label=t("pooling.learned"), elem_id="pool-learned", min_width=320)
    caption = gr.Markdown(elem_id="pool-caption")
    curve = gr.Plot(label=t("pooling.history"), elem_id="pool-curve")
    history = gr.Dataframe(visible=False)  # the API's table of (step, loss, w)

    inputs = [n_train, noise, w, steps, lr, seed]

    @friendly(4)
    def on_compute(n_train, noise, w, steps, lr, seed, request: gr.Request):
        return render(n_train, noise, w, steps, lr, seed, lang_of(request))

    @quiet(5)
    def on_live(n_train, noise, w, steps, lr, seed, request: gr.Request):
        lang = lang_of(request)
        fig_fixed, fig_learned, hist, _ = render(n_train, noise, w, steps, lr, seed, lang, exact=True)
        return fig_fixed, fig_learned, loss_curve(hist, lang), pool_caption(hist, lang), ""

    go.click(on_compute, inputs, [fixed, learned, history, status], api_name="pooling",
             concurrency_id="play")
    # Live: on load and whenever a control changes (a fit takes well under 300 ms).
    gr.on(None, on_live, inputs, [fixed, learned, curve, caption, status], api_visibility="private",
          concurrency_id="play", show_progress="hidden", trigger_mode="always_last")
