"""Attention basics page: Q, K, V in; scores, weights, output and the computation step by step."""

from __future__ import annotations

import gradio as gr

from webapp.compute.matrices import LESSON_K, LESSON_Q, LESSON_V, check_int
from webapp.pages import links
from webapp.pages.common import friendly, lang_of, quiet, t, tr

# torch is imported on first use (webapp.compute.basics), so the app starts fast.
LESSON = (LESSON_Q, LESSON_K, LESSON_V)
STAGES = ("scores", "scaled", "masked", "weights", "output")


def signed(x: float, decimals: int = 4) -> str:
    """A table number as text with the true minus sign U+2212, the sign of the "−∞" beside it
    (a text cell would otherwise show Python's ASCII hyphen: "-0.1179" next to "−∞")."""
    text = f"{float(x):.{decimals}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text.replace("-", "−")


def _masked_scores(r, qs, ks, lang):
    """Scores after the mask: hidden keys read −∞ (what softmax really sees). Every cell is
    text then, written with the same minus sign."""
    from transformer_lab.tables import matrix_table

    df = matrix_table(r.scores, qs, ks, lang=lang)
    if r.keep is not None:
        for j, col in enumerate(df.columns[1:]):
            df[col] = [("−∞" if not bool(r.keep[i, j]) else signed(x)) for i, x in enumerate(df[col])]
    return df


def _vector(row) -> str:
    return "[" + ", ".join(f"{float(x):.2f}" for x in row) + "]"


def scale_rows(r, other, scale: bool, lang: str = "en") -> str:
    """Read from the learner's own numbers: the output row the √d tickbox moves most, and any
    row whose output stays put although its weights change (the lesson's q0 is [5, 6, 7, 8]
    either way, so it cannot tell a scaled answer from an unscaled one). ``other``: the same
    computation with the tickbox the other way; "" when nothing moves."""
    if other is None or other.output.shape != r.output.shape:
        return ""
    scaled, plain = (r, other) if scale else (other, r)
    moved = (scaled.output - plain.output).abs().amax(dim=1)  # (n,)
    if float(moved.max()) < 1e-6:
        return ""
    row = int(moved.argmax())
    w_moved = (scaled.weights - plain.weights).abs().amax(dim=1)
    still = [i for i in range(len(moved)) if moved[i] < 1e-6 and w_moved[i] > 1e-6]
    text = tr("bx.caption.moves", lang, row=f"q{row}", with_=_vector(scaled.output[row]),
              without=_vector(plain.output[row]))
    if still:
        text += tr("bx.caption.still", lang, rows=", ".join(f"q{i}" for i in still), row=f"q{row}")
    return text


def caption(r, scoring: str, lang: str = "en", scale: bool = True, mask: str = "none",
            valid_len: int | None = None, other=None) -> str:
    """What to notice, with the learner's own d (the width of Q and K) and its √d, for the
    "Divide by √d" tickbox as it is and the mask chosen; ``other`` (the same inputs with the
    tickbox the other way) adds which output row the tickbox moves (scale_rows)."""
    from webapp.compute.basics import scale_note

    parts = [tr("bx.caption.rows", lang)]
    note = scale_note(r.d)
    if scoring != "dot":
        parts.append(tr("bx.caption.additive", lang, d=r.d, d_k=r.shapes[1][1][1]))
    elif r.d == 1:
        parts.append(tr("bx.caption.d1", lang))
    else:
        parts.append(tr("bx.caption.dot" if scale else "bx.caption.dot_off", lang, d=note["d"],
                        root=note["root"], eq="=" if note["exact"] else "≈")
                     + scale_rows(r, other, scale, lang))
    if mask == "valid":
        parts.append(tr("bx.caption.valid", lang, valid=valid_len, m=r.weights.shape[1]))
    elif mask == "causal":
        parts.append(tr("bx.caption.causal", lang))
    return ("" if lang == "zh" else " ").join(parts)  # Chinese needs no space after "。"


def scores_label(scoring: str, scale: bool, mask: str, lang: str = "en") -> str:
    """The scores table's title, saying what it holds: after ÷√d or the raw Q·Kᵀ, and −∞ where
    the mask hides a key (step 1 of the steps below is always the raw Q·Kᵀ)."""
    if scoring != "dot":
        label = tr("bx.scores.additive", lang)
    else:
        label = tr("bx.scores.scaled" if scale else "bx.scores.raw", lang)
    return label if mask == "none" else tr("bx.scores.masked", lang, label=label)


def render(q, k, v, scoring, scale, mask, valid_len, seed, lang="en"):
    """Compute with webapp.compute.basics and turn the result into the page's tables and figure."""
    from transformer_lab.attention_plot import attention_heatmap
    from transformer_lab.tables import matrix_table, shapes_table
    from webapp.compute.basics import attention_basics

    # the valid length is checked against the number of keys (webapp.compute.basics.check_valid_len)
    valid = valid_len if mask == "valid" else None
    r = attention_basics(q, k, v, scoring, bool(scale), mask, valid, check_int(seed, "seed", 0, 10**6))
    n, m = r.weights.shape
    qs, ks = [f"q{i}" for i in range(n)], [f"k{j}" for j in range(m)]
    out_cols = [f"out[{j}]" for j in range(r.output.shape[1])]
    shown = r.weights.clone()
    if r.keep is not None:
        shown[~r.keep] = float("nan")  # hidden keys drawn as gaps, not as ordinary zeros
    names = {"scores": tr("bx.scores", lang), "weights": tr("bx.weights", lang),
             "output": tr("bx.output", lang)}
    shapes = [(names.get(name, name), shape) for name, shape in r.shapes]
    return (
        shapes_table(shapes, lang=lang),
        _masked_scores(r, qs, ks, lang) if r.keep is not None else matrix_table(r.scores, qs, ks, lang=lang),
        matrix_table(r.weights, qs, ks, lang=lang),
        attention_heatmap(shown, qs, ks, show_values=True, lang=lang,
                          title=tr("bx.heat_title", lang)).update_layout(plot_bgcolor="#c8c8c8"),
        matrix_table(r.output, qs, out_cols, lang=lang, corner="corner_out"),
        "",
    )


def steps_intro(scoring: str, lang: str = "en") -> str:
    """The step-by-step heading: the five stages for dot-product scoring; for additive scoring,
    one sentence saying the view follows dot-product scoring (its panels are hidden then)."""
    return tr("bx.steps_title" if scoring == "dot" else "bx.steps_additive", lang)


def render_steps(q, k, v, scoring, scale, mask, valid_len, lang="en"):
    """The five stage figures of a dot-product computation; None for each with additive
    scoring (it has no Q·Kᵀ, ÷√d stages: the page hides the panels and says so)."""
    from transformer_lab.stepwise import attention_stages, stage_figure
    from webapp.compute.basics import attention_basics
    from webapp.compute.matrices import parse_matrix

    if scoring != "dot":
        return [None] * len(STAGES)
    valid = valid_len if mask == "valid" else None
    r = attention_basics(q, k, v, "dot", bool(scale), mask, valid)
    stages = attention_stages(parse_matrix(q, "Q"), parse_matrix(k, "K"), parse_matrix(v, "V"),
                              scale=bool(scale), keep=None if r.keep is None else r.keep.numpy())
    def title(key: str) -> str:  # unticked √d: the second stage divides by nothing
        return tr("bx.step.unscaled" if key == "scaled" and not scale else f"bx.step.{key}", lang)

    return [stage_figure(s, title(s.key)) for s in stages]


def build(lesson_links: links.LessonLinks) -> None:
    """Lay out the page inside the current gr.Tab and wire its events."""
    intro = gr.Markdown(t("basics.intro"), elem_id="basics-intro")
    with gr.Row():
        q = gr.Textbox(LESSON[0], lines=4, label=t("basics.q"), elem_id="basics-q", min_width=120)
        k = gr.Textbox(LESSON[1], lines=4, label=t("basics.k"), elem_id="basics-k", min_width=120)
        v = gr.Textbox(LESSON[2], lines=4, label=t("basics.v"), elem_id="basics-v", min_width=120)
    with gr.Row():
        scoring = gr.Radio([(t("basics.dot"), "dot"), (t("basics.additive"), "additive")],
                           value="dot", label=t("basics.scoring"), elem_id="basics-scoring")
        scale = gr.Checkbox(True, label=t("basics.scale"), elem_id="basics-scale")
        mask = gr.Radio([(t("mask.none"), "none"), (t("mask.valid"), "valid"),
                         (t("mask.causal"), "causal")], value="none", label=t("mask"),
                        elem_id="basics-mask")
        valid_len = gr.Number(2, precision=0, label=t("valid_len"), min_width=100,
                              elem_id="basics-valid")
        seed = gr.Number(0, precision=0, label=t("seed"), min_width=100)
    with gr.Row():
        compute = gr.Button(t("compute"), variant="primary", elem_id="basics-compute")
        randomise = gr.Button(t("randomise"))
        lesson = gr.Button(t("lesson"))
    matrix = links.Text(2000)  # parse_matrix's 16 × 16 numbers, written out
    lesson_links.register("basics", {"q": (q, matrix), "k": (k, matrix), "v": (v, matrix),
                                     "scoring": scoring, "scale": scale, "mask": mask,
                                     "valid": (valid_len, links.Range(1, 16, integer=True)),
                                     "seed": (seed, links.Range(0, 10**6, integer=True))},
                          changers={randomise: ("q", "k", "v"), lesson: ("q", "k", "v")})
    status = gr.Markdown(elem_id="basics-status")
    # Hidden until the first computation fills them: an empty Dataframe is headed "1 2 3", the
    # placeholder a learner met first (issue 26, item 2).
    shapes = gr.Dataframe(label=t("basics.shapes"), interactive=False, visible=False,
                          elem_id="basics-shapes")
    with gr.Row():
        scores = gr.Dataframe(label=t("bx.scores.scaled"), interactive=False, visible=False,
                              elem_id="basics-scores")
        weights = gr.Dataframe(label=t("basics.weights"), interactive=False, visible=False,
                               elem_id="basics-weights")
    with gr.Row():
        heatmap = gr.Plot(label=t("heatmap"), elem_id="basics-heatmap")
        output = gr.Dataframe(label=t("basics.output"), interactive=False, visible=False,
                              elem_id="basics-output")
    notice = gr.Markdown(elem_id="basics-caption")
    steps_title = gr.Markdown(t("bx.steps_title"), elem_id="basics-steps-title")
    with gr.Row(elem_id="basics-steps"):
        steps = [gr.Plot(show_label=False, elem_id=f"basics-step-{key}", min_width=200)
                 for key in STAGES]

    inputs = [q, k, v, scoring, scale, mask, valid_len, seed]
    outputs = [shapes, scores, weights, heatmap, output, status]

    @friendly(len(outputs))
    def on_compute(q, k, v, scoring, scale, mask, valid_len, seed, request: gr.Request):
        return render(q, k, v, scoring, scale, mask, valid_len, seed, lang_of(request))

    @quiet(len(outputs) + len(STAGES) + 2)
    def on_live(q, k, v, scoring, scale, mask, valid_len, seed, request: gr.Request):
        from webapp.compute.basics import attention_basics

        lang = lang_of(request)
        *tables, status_text = render(q, k, v, scoring, scale, mask, valid_len, seed, lang)
        figs = render_steps(q, k, v, scoring, scale, mask, valid_len, lang)
        valid = int(float(valid_len)) if mask == "valid" else None  # render checked it
        r = attention_basics(q, k, v, scoring, bool(scale), mask, valid, int(seed))
        other = attention_basics(q, k, v, scoring, not scale, mask, valid, int(seed)) \
            if scoring == "dot" else None  # the tickbox the other way: which row it moves
        shapes_t, scores_t, weights_t, heat, output_t = tables
        shown = dict(visible=True)  # the tables appear with their first numbers
        shapes_t, weights_t, output_t = (gr.update(value=x, **shown)
                                         for x in (shapes_t, weights_t, output_t))
        scores_t = gr.update(value=scores_t, label=scores_label(scoring, bool(scale), mask, lang),
                             **shown)
        rest = [weights_t, heat, output_t]
        panels = [gr.update(value=fig, visible=scoring == "dot") for fig in figs]
        return (shapes_t, scores_t, *rest, steps_intro(scoring, lang), *panels,
                caption(r, scoring, lang, bool(scale), mask, valid, other), status_text)

    @friendly(5)
    def on_randomise(seed, request: gr.Request):
        from webapp.compute.basics import random_qkv

        seed = check_int(seed, "seed", 0, 10**6)
        # The intro spoke of the lesson's example ("[5, 6, 7, 8]") over random matrices.
        return (*random_qkv(seed=seed), tr("basics.intro_random", lang_of(request), seed=seed),
                "")

    def on_lesson(request: gr.Request):
        return (*LESSON, tr("basics.intro", lang_of(request)), "")

    def on_scoring(scoring, request: gr.Request):
        """Additive scoring has no √d to divide by: the tickbox is greyed out (the caption says
        so); dot-product scoring makes it live again, unless a lesson link locks it."""
        locked = lesson_links.locked(request, "basics", "scale")
        return gr.update(interactive=scoring == "dot" and not locked)

    compute.click(on_compute, inputs, outputs, api_name="attention_basics", concurrency_id="play")
    # Live: on first load and on every change (the whole computation takes a few ms).
    live_outputs = [*outputs[:-1], steps_title, *steps, notice, status]
    # "always_last": a lesson link sets the controls right after load; the page must end on them
    gr.on(None, on_live, inputs, live_outputs, api_visibility="private", concurrency_id="play",
          show_progress="hidden", trigger_mode="always_last")
    randomise.click(on_randomise, [seed], [q, k, v, intro, status], api_visibility="private")
    lesson.click(on_lesson, None, [q, k, v, intro, status], api_visibility="private")
    scoring.change(on_scoring, [scoring], [scale], api_visibility="private",
                   show_progress="hidden")
