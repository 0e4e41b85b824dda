"""Complexity page: measured time against n for self-attention, RNN and CNN, beside the paper's table."""

from __future__ import annotations

import threading

import gradio as gr

from webapp.compute.matrices import check_int
from webapp.pages import links
from webapp.pages.common import friendly, lang_of, t, tr

DEFAULT_SIZES, DEFAULT_D = "128, 256, 512, 1024", 64
REPEATS = 7  # interleaved runs per cell; the median resists a busy machine's outliers
THEORY = {"self-attention": 2.0}  # log-log slope in n; the others (GRU, convolution) are 1
NEAR = 0.35  # a slope this close to the theory "agrees" with it


def _measured_table(df, lang):
    table = df.pivot_table(index=["layer", "d"], columns="n", values="ms").round(3).reset_index()
    layer, ms = tr("cols.layer", lang), tr("cx.ms", lang)
    table.columns = [layer if c == "layer" else "d" if c == "d" else f"n={c} ({ms})"
                     for c in table.columns]
    from transformer_lab.complexity_plot import LAYER_NAMES

    table[layer] = [LAYER_NAMES.get(x, (x, x))[lang == "zh"] for x in table[layer]]
    return table


def measured_caption(df, lang="en") -> str:
    """What this measurement shows, from its own numbers: each layer's slope beside the theory's,
    and, where they disagree, why and what the last doubling of n gave (never a fixed claim)."""
    from transformer_lab.complexity_plot import LAYER_NAMES
    from transformer_lab.tables import timing_slopes

    zh = lang == "zh"
    rows = timing_slopes(df).to_dict("records")
    parts, off = [], []
    for r in rows:
        name = LAYER_NAMES.get(r["layer"], (r["layer"],) * 2)[zh]
        theory = THEORY.get(r["layer"], 1.0)
        parts.append(tr("cx.slope_of", lang, name=name, slope=r["slope"], theory=theory))
        if not abs(r["slope"] - theory) <= NEAR:
            off.append(name)
    ns = sorted(df["n"].unique())
    d = int(df["d"].iloc[0])
    import torch

    text = tr("cx.measured_how", lang, repeats=REPEATS, d=d, threads=torch.get_num_threads(),
              slopes=("；" if zh else "; ").join(parts))
    space = "" if zh else " "
    if not off:
        return text + space + tr("cx.agrees", lang)
    att = df[df["layer"] == "self-attention"].set_index("n")["ms"]
    growth = float(att[ns[-1]] / att[ns[-2]]) if len(ns) > 1 and len(att) == len(ns) else float("nan")
    return text + space + tr("cx.departs", lang, names=("、" if zh else ", ").join(off), a=ns[-2],
                           b=ns[-1], ratio=growth, theory=(ns[-1] / ns[-2]) ** 2)


def render(sizes_text, d, lang="en"):
    """Run the small benchmark (webapp.compute.complexity) and draw it on log-log axes."""
    df = _measure(sizes_text, d)
    return _shown(df, lang) + ("", df)


def _measure(sizes_text, d):
    from webapp.compute.complexity import parse_sizes, run_complexity

    return run_complexity(parse_sizes(sizes_text), check_int(d, "d", 8, 256), repeats=REPEATS)


def _shown(df, lang):
    from transformer_lab.complexity_plot import complexity_figure

    return complexity_figure(df, lang=lang), _measured_table(df, lang)


class FirstResult:
    """The default benchmark of one page, measured on its first visit and then reused (it takes
    seconds): the app builds the page once, so it is measured once per server."""

    def __init__(self) -> None:
        self._df = None
        self._lock = threading.Lock()

    def __call__(self, lang="en"):
        from transformer_lab.tables import complexity_table

        with self._lock:
            if self._df is None:
                self._df = _measure(DEFAULT_SIZES, DEFAULT_D)
        df = self._df
        return (complexity_table(lang), *_shown(df, lang), tr("cx.first", lang),
                measured_caption(df, lang))


def link_note(values: dict, lang: str) -> str:
    """A lesson link with other sizes or d than the first measurement: say that the figure shown
    is that one (re-measuring takes seconds: the button does it, not the link)."""
    same = values["sizes"] == DEFAULT_SIZES and values["d"] == DEFAULT_D
    return "" if same else tr("link.cx_stale", lang)


def build(lesson_links: links.LessonLinks) -> None:
    """Lay out the page inside the current gr.Tab and wire its events."""
    gr.Markdown(t("cx.intro"))
    from transformer_lab.tables import complexity_table  # pandas only: no torch at start-up

    paper = gr.Dataframe(complexity_table(), label=t("cx.table"), interactive=False,
                         elem_id="cx-paper")
    with gr.Row():
        sizes = gr.Textbox(DEFAULT_SIZES, label=t("cx.sizes"), min_width=160)
        d = gr.Number(DEFAULT_D, precision=0, label=t("cx.d"), min_width=100)
        run = gr.Button(t("cx.run"), variant="primary", elem_id="cx-run")
    lesson_links.register("complexity", {"sizes": (sizes, links.Text(100, r"[0-9,\s]")),  # parse_sizes
                                         "d": (d, links.Range(8, 256, integer=True))}, note=link_note)
    status = gr.Markdown(elem_id="cx-status")
    plot = gr.Plot(label=t("cx.plot"), elem_id="cx-plot")
    # Says what was measured and follows the figure: a busy machine can bend the slopes.
    caption = gr.Markdown(elem_id="cx-caption")
    measured = gr.Dataframe(label=t("cx.measured"), interactive=False, elem_id="cx-measured")
    last = gr.State(None)  # the run's table, for its caption (a State stays out of the API)
    first_result = FirstResult()  # this page's first measurement, shown on every first load

    @friendly(4)
    def on_run(sizes, d, request: gr.Request):
        plot_, table, status_, df = render(sizes, d, lang_of(request))
        return plot_, table, df, status_

    def on_caption(df, request: gr.Request):
        return gr.skip() if df is None else measured_caption(df, lang_of(request))

    def on_load(request: gr.Request):
        return first_result(lang_of(request))

    def on_change(request: gr.Request):
        return tr("stale", lang_of(request))

    # The benchmark takes the CPU for seconds: one at a time in its own pool ("measure"), apart
    # from grading and from the train pool (wide: its runs wait in webapp.train.train_queue).
    run.click(on_run, [sizes, d], [plot, measured, last, status], api_name="complexity",
              concurrency_id="measure").then(on_caption, [last], [caption],
                                             api_visibility="private")
    # First load: the paper's table in the page's language and the default measurement (run
    # once per server, then cached). A change of sizes or d marks the result stale: re-measuring
    # takes seconds, so it waits for the button.
    gr.on(None, on_load, [],
          [paper, plot, measured, status, caption], api_visibility="private", concurrency_id="measure",
          show_progress="hidden")
    gr.on([sizes.input, d.input], on_change, None, [status], api_visibility="private", queue=False)
