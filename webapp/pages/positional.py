"""Positional encoding page: heatmap, curves, the worked table and the permutation experiment."""

from __future__ import annotations

import re

import gradio as gr
import pandas as pd

from transformer_lab.figures import positional_curves, positional_heatmap
from transformer_lab.tables import matrix_table
from webapp.compute.matrices import check_int
from webapp.i18n import input_error
from webapp.pages import links
from webapp.pages.common import friendly, lang_of, quiet, t, tr

MAX_LEN, MAX_D = 512, 512


def split_dims(text: str, d_model: int) -> tuple[list[int], list[int]]:
    """'4, 5, 6, 7' with d_model 6 → ([4, 5], [6, 7]): the dimensions the table has, and those
    it lacks. A ValueError names 'Dimensions to plot' and d_model when none is left to plot,
    since that box, not d_model, is what the learner must change."""
    parts = [p for p in re.split(r"[,\s]+", text or "") if p]
    if not parts:
        raise input_error("dims_none")
    if len(parts) > 12:
        raise input_error("dims_too_many")
    dims = [check_int(p, "dimension", -(10**6), 10**6) for p in parts]
    kept = [j for j in dims if 0 <= j < d_model]
    dropped = [j for j in dims if not 0 <= j < d_model]
    if not kept:
        raise input_error("dim_outside" if len(dropped) == 1 else "dims_outside",
                          dims=", ".join(map(str, dropped)), top=d_model - 1, d_model=d_model)
    return kept, dropped


def dims_note(dropped: list[int], kept: list[int], d_model: int, lang: str = "en") -> str:
    """The status line when some dimensions were left out: which, why, and which were plotted."""
    if not dropped:
        return ""
    join = "、" if lang == "zh" else ", "
    return "ℹ️ " + tr("pe.dims_dropped", lang, dropped=join.join(map(str, dropped)), d=d_model,
                      last=d_model - 1, kept=join.join(map(str, kept)))


SHOWN_POSITIONS, SHOWN_DIMS = 5, 8  # the worked table: the first rows and columns of the table


def render(length, d_model, dims_text, lang="en"):
    """Heatmap and curves of the sinusoidal table for the chosen size, plus the worked table."""
    from transformer_lab.positional import sinusoidal_table

    T = check_int(length, "length", 1, MAX_LEN)
    d = check_int(d_model, "d_model", 2, MAX_D)
    if d % 2:
        raise input_error("d_model_odd", d=d)
    table = sinusoidal_table(T, d)  # (T, d)
    # The learner's own table, its first rows and columns (it was always the lesson's d_model = 4
    # table, whatever was typed); at d_model = 4 and 5+ positions it is the lesson's table.
    n_rows, n_cols = min(T, SHOWN_POSITIONS), min(d, SHOWN_DIMS)
    cols = [tr("pe.dim_col", lang, j=j) for j in range(n_cols)]
    rows = [tr("pe.pos_row", lang, i=i) for i in range(n_rows)]
    kept, dropped = split_dims(dims_text, d)
    worked = matrix_table(table[:n_rows, :n_cols], rows, cols, lang=lang, corner="corner_pos")
    return (
        positional_heatmap(table, lang=lang),
        positional_curves(table, kept, lang=lang),
        worked,  # a plain table: the /positional API keeps its output's shape
        dims_note(dropped, kept, d, lang),
    )


def render_permutation(d_model, seed, lang="en"):
    """The exercise-2 experiment as a table (webapp.compute.explore.permutation_experiment)."""
    from webapp.compute.explore import permutation_experiment

    df = permutation_experiment(check_int(d_model, "d_model", 2, 64), check_int(seed, "seed", 0, 10**6))
    names = {col: tr(f"cols.{col}", lang) for col in ("order", "no_pe", "pe")}
    df[["no_pe", "pe"]] = df[["no_pe", "pe"]].map(lambda x: float(f"{x:.3g}"))
    return df.rename(columns=names), ""


def build(lesson_links: links.LessonLinks) -> None:
    """Lay out the page inside the current gr.Tab and wire its events."""
    gr.Markdown(t("pe.intro"))
    with gr.Row():
        length = gr.Slider(1, MAX_LEN, value=60, step=1, label=t("pe.length"), min_width=160)
        d_model = gr.Number(32, precision=0, label=t("pe.d_model"), elem_id="pe-d", min_width=100)
        dims = gr.Textbox("4, 5, 6, 7", label=t("pe.dims"), min_width=160, elem_id="pe-dims")
    show = gr.Button(t("pe.show"), variant="primary", elem_id="pe-show")
    share = links.copy_row("positional")
    status = gr.Markdown(elem_id="pe-status")
    with gr.Row():
        heat = gr.Plot(show_label=False, elem_id="pe-heatmap", min_width=300)
        curves = gr.Plot(show_label=False, elem_id="pe-curves", min_width=300)
    gr.Markdown(t("pe.caption"))
    worked = gr.Dataframe(label=t("pe.table"), interactive=False, visible=False,
                          elem_id="pe-worked")
    gr.Markdown(t("pe.perm_title"))
    gr.Markdown(t("pe.perm_intro"))
    with gr.Row():
        perm_d = gr.Number(8, precision=0, label="d_model")
        perm_seed = gr.Number(0, precision=0, label=t("seed"))
        run = gr.Button(t("pe.run_perm"), elem_id="pe-perm-run")
    perm = gr.Dataframe(label=t("pe.perm_table"), interactive=False, visible=False,
                        elem_id="pe-perm")
    whole = links.Range(0, 10**6, integer=True)
    lesson_links.register("positional", {"length": length, "d": (d_model, links.Range(2, MAX_D, integer=True)),
                                         "dims": (dims, links.Text(120, r"[0-9,\s-]")),  # split_dims' list
                                         "perm_d": (perm_d, links.Range(2, 64, integer=True)),
                                         "perm_seed": (perm_seed, whole)}, share)
    perm_status = gr.Markdown()
    gr.Markdown(t("pe.perm_caption"))

    @friendly(4)
    def on_show(length, d_model, dims, request: gr.Request):
        return render(length, d_model, dims, lang_of(request))

    @friendly(2)
    def on_perm(d_model, seed, request: gr.Request):
        return render_permutation(d_model, seed, lang_of(request))

    show.click(on_show, [length, d_model, dims], [heat, curves, worked, status],
               api_name="positional", concurrency_id="play")
    run.click(on_perm, [perm_d, perm_seed], [perm, perm_status], api_name="permutation",
              concurrency_id="play")
    # Live: on load and on every change (both computations take milliseconds). The tables are
    # hidden until these first fill them (an empty Dataframe is headed "1 2 3"); the API's own
    # events keep their plain outputs.
    def shown(out: tuple, table: int) -> tuple:
        return tuple(gr.update(value=x, visible=True) if i == table and isinstance(
            x, pd.DataFrame) else x for i, x in enumerate(out))

    def live_show(length, d_model, dims, request: gr.Request):
        return shown(render(length, d_model, dims, lang_of(request)), 2)

    def live_perm(d_model, seed, request: gr.Request):
        return shown(render_permutation(d_model, seed, lang_of(request)), 0)

    gr.on(None, quiet(4)(live_show), [length, d_model, dims], [heat, curves, worked, status],
          api_visibility="private", concurrency_id="play", show_progress="hidden",
          trigger_mode="always_last")
    gr.on(None, quiet(2)(live_perm), [perm_d, perm_seed], [perm, perm_status],
          api_visibility="private", concurrency_id="play", show_progress="hidden",
          trigger_mode="always_last")  # a lesson link sets them right after load
