"""Multi-head explorer page: every head of a random layer or of the model trained on the Train page."""

from __future__ import annotations

from typing import Any

import gradio as gr

from webapp.compute.matrices import check_int
from webapp.i18n import Term, input_error
from webapp.pages import links
from webapp.pages.common import friendly, lang_of, quiet, t, tr
from webapp.pages.viewport import head_grid, width_input, with_width

# Click a thumbnail to enlarge it (as BertViz does): plotly marks each subplot's drag layer with
# data-subplot="x3y3"; the k-th subplot is the k-th choice of the "head to enlarge" radio.
# One delegated listener survives every redraw of the grid.
CLICK_TO_ENLARGE = """() => {
  if (window.__tlThumbs) return; window.__tlThumbs = true;
  document.addEventListener('click', (e) => {
    const layer = e.target.closest && e.target.closest('#mh-grid [data-subplot]');
    if (!layer) return;
    const m = /^x(\\d*)y/.exec(layer.getAttribute('data-subplot') || '');
    if (!m) return;
    const k = m[1] ? parseInt(m[1], 10) : 1;
    const choice = document.querySelectorAll('#mh-pick label')[k - 1];
    if (choice) choice.click();
  }, true);
}"""
KINDS = ("encoder_self", "decoder_self", "cross")  # a Transformer's attention, as the Train page's
MASKED = "#c8c8c8"  # masked cells are nan: the grey background shows through them
# "layer · head" of every head the grid can show (a trained model: up to 4 layers × 8 heads)
HEAD_NAMES = tuple(f"{i} · {j}" for i in range(1, 5) for j in range(1, 9))


def pick_choices(values: dict) -> dict[str, dict]:
    """A lesson link's "head to enlarge" among the random layer's heads (the live view then
    names them all): a radio's value must be one of its choices."""
    heads = values["heads"] if isinstance(values.get("heads"), int) else 1
    names = [f"1 · {j}" for j in range(1, heads + 1)]
    return {"pick": {"choices": list(dict.fromkeys([*names, values["pick"]]))}}


def render(embed_dim, heads, tokens, mask, valid_len, seed, lang="en"):
    """Weights of a random multi-head layer as a 1 × heads grid, plus the shapes table."""
    from transformer_lab.attention_plot import attention_grid
    from transformer_lab.tables import multihead_shape_steps, shapes_table
    from webapp.compute.explore import MAX_EMBED, MAX_HEADS, MAX_TOKENS, multihead_weights

    e = check_int(embed_dim, "embed_dim", 1, MAX_EMBED)
    h = check_int(heads, "heads", 1, MAX_HEADS)
    n = check_int(tokens, "tokens", 1, MAX_TOKENS)
    valid = check_int(valid_len, "valid_length", 1, n) if mask == "valid" else None
    weights = multihead_weights(e, h, n, mask, valid, check_int(seed, "seed", 0, 10**6))  # (h, n, n)
    labels = [f"x{i}" for i in range(n)]
    grid = attention_grid([weights], labels, labels, lang=lang)
    return grid, shapes_table(multihead_shape_steps(1, n, n, e, h, lang=lang), lang=lang), ""


def heads_sentence(layer_maps, lang: str = "en") -> str:
    """What the heads actually do, measured (webapp.compute.explore.head_difference): alike or
    different, by how much, and the most different pair; "" when no layer has two heads."""
    from webapp.compute.explore import ALIKE, head_difference

    found = head_difference(layer_maps)
    if found is None:
        return ""
    mean, (most, layer, a, b) = found
    if mean < ALIKE:
        return tr("mh.heads_alike", lang, mean=f"{100 * mean:.0f}")
    return tr("mh.heads_differ", lang, mean=f"{100 * mean:.0f}", layer=layer, a=a, b=b,
              most=f"{100 * most:.0f}")


def heads_of(source, kind, embed_dim, heads, tokens, mask, valid_len, seed, run, lang="en"):
    """(layer maps [(h, n, m)], query labels, key labels, caption, intro) of the chosen source."""
    from webapp.compute.explore import multihead_weights

    if source == "trained":
        if run is None:  # the page shows its calm "no trained model yet" state (on_live)
            raise input_error("train_first")
        layer_maps, q, k, intro = trained_heads(run, kind, lang)
        # one layer of one head (Bahdanau, or a 1 × 1 Transformer): no heads to compare
        one = len(layer_maps) == 1 and int(layer_maps[0].shape[0]) == 1
        task, kind_name = tr(f"task.{run.task_name}", lang), tr(f"kind.{kind}", lang)
        if one:
            cap = tr("mh.trained_caption.one", lang, task=task, kind=kind_name)
        else:
            cap = tr("mh.trained_caption", lang, task=task, kind=kind_name,
                     heads=heads_sentence(layer_maps, lang))
        return layer_maps, q, k, cap, intro
    n = check_int(tokens, "tokens", 1, 24)
    valid = check_int(valid_len, "valid_length", 1, n) if mask == "valid" else None
    w = multihead_weights(check_int(embed_dim, "embed_dim", 1, 512), check_int(heads, "heads", 1, 8),
                          n, mask, valid, check_int(seed, "seed", 0, 10**6))
    labels = [f"x{i}" for i in range(n)]
    hidden = w.new_zeros(n, n, dtype=bool)  # (n, n): keys a query may not see
    if mask == "causal":
        hidden = w.new_ones(n, n, dtype=bool).triu(1)
    elif mask == "valid":
        hidden[:, valid:] = True
    w = w.masked_fill(hidden, float("nan"))  # drawn as gaps, not as ordinary zeros
    return [w], labels, labels, tr("mh.random_caption", lang), tr("mh.intro", lang)


def trained_heads(run, kind: str, lang: str = "en"):
    """The run's per-layer maps of `kind` on held-out example 0, its labels, and an intro that
    says which run this is, its layers × heads and the real tokens the maps are drawn over."""
    from webapp.train.training import all_attention, example_batch

    batch = example_batch(run)
    maps, labels = all_attention(run, batch.src[:1], batch.src_lens[:1])
    if kind not in maps:
        raise input_error("no_attention_choose", model=run.model_name.capitalize(), kind=Term(kind),
                          choices=Term(*maps))
    out_tokens, src_tokens = labels["cross"]  # every model has cross-attention
    layer_maps = maps[kind]
    intro = tr("mh.intro.trained", lang, model=tr(f"model.{run.model_name}", lang),
               task=tr(f"task.{run.task_name}", lang), steps=run.summary.get("steps", "?"),
               layers=len(layer_maps), heads=int(layer_maps[0].shape[0]),
               src=" ".join(src_tokens), out=" ".join(out_tokens))
    return layer_maps, *labels[kind], intro


def on_source(source: str, lang: str, run=None, kind: str = "cross") -> tuple:
    """Show the controls that apply to the chosen source: a random layer's width, heads, tokens,
    mask and seed, or the trained model's attention kinds; and the intro that describes it."""
    random = source == "random"
    # Bahdanau's GRU seq2seq has cross-attention only; a Transformer has all three kinds
    kinds = KINDS if run is None or run.model_name == "transformer" else ("cross",)
    if random:
        intro = tr("mh.intro", lang)
    elif run is None:
        intro = tr("mh.intro.no_run", lang)
    else:
        intro = tr("mh.intro.trained_short", lang, model=tr(f"model.{run.model_name}", lang),
                   task=tr(f"task.{run.task_name}", lang))
    choices = [(tr(f"kind.{x}", lang), x) for x in kinds]
    return (intro, gr.update(visible=random), gr.update(visible=random),
            gr.update(visible=not random and run is not None, choices=choices,
                      value=kind if kind in kinds else "cross"))


def no_run_view(lang: str) -> tuple:
    """The trained source before any run: the intro and the status say what to do (calmly: it is
    a state, not an input error), and nothing below is left over from the random layer (grid,
    head choice, enlarged head, shapes and caption hidden).
    Same order as the live event's outputs: grid, pick, big, shapes, caption, intro, status."""
    hide = gr.update(visible=False)
    return hide, hide, hide, hide, "", tr("mh.intro.no_run", lang), tr("mh.status.no_run", lang)


def thumbnails(layer_maps, q, k, lang, width=None):
    """The layers × heads grid for a screen `width` px wide (a phone: two heads per row)."""
    fig = head_grid(layer_maps, q, k, lang, width)
    fig.update_layout(plot_bgcolor=MASKED)
    return fig


def build(lesson_links: links.LessonLinks, sessions: Any, tab: gr.Tab | None = None) -> None:
    """Lay out the page inside the current gr.Tab and wire its events (``sessions``: the Train
    page's last run per browser session). Opening the tab redraws it: a run may have ended on
    the Train page meanwhile."""
    # sessions: the Train page's TrainSessions, tab: the gr.Tab being built (both from app.py)
    intro = gr.Markdown(t("mh.intro"), elem_id="mh-intro")
    with gr.Row():
        source = gr.Radio([(t("mh.source.random"), "random"), (t("mh.source.trained"), "trained")],
                          value="random", label=t("mh.source"), elem_id="mh-source")
        kind = gr.Radio([(t(f"kind.{x}"), x) for x in KINDS],
                        value="cross", label=t("train.kind"), elem_id="mh-kind", visible=False)
    with gr.Row(elem_id="mh-random-controls") as random_controls:
        embed = gr.Number(16, precision=0, label=t("mh.embed"), elem_id="mh-embed", min_width=100)
        heads = gr.Number(4, precision=0, label=t("mh.heads"), elem_id="mh-heads", min_width=100)
        tokens = gr.Slider(1, 24, value=6, step=1, label=t("mh.tokens"), min_width=160,
                           elem_id="mh-tokens")
        mask = gr.Radio([(t("mask.none"), "none"), (t("mask.valid"), "valid"),
                         (t("mask.causal"), "causal")], value="none", label=t("mask"))
        valid_len = gr.Number(3, precision=0, label=t("valid_len"), min_width=100)
        seed = gr.Number(0, precision=0, label=t("seed"), min_width=100, elem_id="mh-seed")
    # Compute is the API's random layer (the page itself is live): hidden with the random controls
    go = gr.Button(t("compute"), variant="primary", elem_id="mh-compute")
    share = links.copy_row("multihead")
    status = gr.Markdown(elem_id="mh-status")
    caption = gr.Markdown(elem_id="mh-caption")
    grid = gr.Plot(label=t("mh.thumbs"), elem_id="mh-grid")
    pick = gr.Radio(["1 · 1"], value="1 · 1", label=t("mh.pick"), elem_id="mh-pick")
    big = gr.Plot(label=t("mh.big"), elem_id="mh-big")
    shapes = gr.Dataframe(label=t("mh.shapes"), interactive=False, visible=False)  # until filled
    width = width_input()
    whole = links.Range(0, 10**6, integer=True)
    lesson_links.register("multihead", {
        "source": source, "kind": kind, "embed": (embed, links.Range(1, 512, integer=True)),
        "heads": (heads, links.Range(1, 8, integer=True)), "tokens": tokens, "mask": mask,
        "valid": (valid_len, links.Range(1, 24, integer=True)), "seed": (seed, whole),
        "pick": (pick, links.Choice(HEAD_NAMES))}, share, adjust=pick_choices,
        check=links.divisible("embed", "heads", when=lambda v: v.get("source") == "random"))

    inputs = [source, kind, embed, heads, tokens, mask, valid_len, seed, pick, width]

    @friendly(3)
    def on_compute(embed, heads, tokens, mask, valid_len, seed, request: gr.Request):
        return render(embed, heads, tokens, mask, valid_len, seed, lang_of(request))

    @quiet(7)
    def on_live(source, kind, embed, heads, tokens, mask, valid_len, seed, pick, width,
                request: gr.Request):
        from transformer_lab.attention_plot import attention_heatmap
        from transformer_lab.tables import multihead_shape_steps, shapes_table

        lang = lang_of(request)
        run = sessions.get(request.session_hash) if source == "trained" else None
        if source == "trained" and run is None:
            return no_run_view(lang)
        layer_maps, q, k, cap, intro_text = heads_of(source, kind, embed, heads, tokens, mask,
                                                     valid_len, seed, run, lang)
        names = [f"{i + 1} · {j + 1}" for i in range(len(layer_maps))
                 for j in range(int(layer_maps[0].shape[0]))]
        chosen = pick if pick in names else names[0]
        li, hi = (int(x) - 1 for x in chosen.split(" · "))
        title = tr("mh.big_title", lang, head=chosen)
        enlarged = attention_heatmap(layer_maps[li][hi], q, k, title=title, lang=lang)
        enlarged.update_layout(plot_bgcolor=MASKED)
        n = len(q)
        # a trained model's own head count (Bahdanau's additive attention is one head)
        e, h = (int(embed), int(heads)) if source == "random" else (
            run.config.d_model, int(layer_maps[0].shape[0]))
        table = shapes_table(multihead_shape_steps(1, n, len(k), e, h, lang=lang), lang=lang)
        return (gr.update(value=thumbnails(layer_maps, q, k, lang, width), visible=True),
                # the value only when it must change: a redraw of older settings still on its
                # way must not undo a head just picked (or a lesson link's)
                gr.update(choices=names, visible=True, **({} if chosen == pick else {"value": chosen})),
                gr.update(value=enlarged, visible=True), gr.update(value=table, visible=True),
                cap, intro_text, "")

    def switch(source, kind, request: gr.Request):
        run = sessions.get(request.session_hash) if source == "trained" else None
        return on_source(source, lang_of(request), run, kind)

    gr.on(None, None, [], None, js=CLICK_TO_ENLARGE)  # browser-side only, once per page
    # Live: on load and on every change (a random layer or a trained model's forward is quick).
    # The grid is drawn for the browser's width (js fills the hidden width input): a phone gets
    # two heads per row instead of overlapping thumbnails.
    # Gradio 6.31 still writes a hidden event's progress ("queue: 1/1 | 0.2s", in English) into
    # each output at opacity 0, where innerText and screen readers find it: it goes to the hidden
    # width input instead, which is never drawn.
    quiet_progress = dict(show_progress="hidden", show_progress_on=[width])
    live = dict(fn=on_live, inputs=inputs, outputs=[grid, pick, big, shapes, caption, intro, status],
                api_visibility="private", concurrency_id="play", js=with_width(len(inputs)),
                **quiet_progress)
    # Before the live redraw, so a trained source never shows the random layer's controls
    source.change(switch, [source, kind], [intro, random_controls, go, kind],
                  api_visibility="private", queue=False, **quiet_progress)
    # The button is the API's (a grid for a desktop); in the page the live view then redraws it.
    go.click(on_compute, [embed, heads, tokens, mask, valid_len, seed], [grid, shapes, status],
             api_name="multihead", concurrency_id="play").then(**live)
    # Opening the tab is one more trigger of the same live event, so "always_last" also orders
    # it against a change made right after opening (as a chained event, its older inputs could
    # land last and wipe the newer result). The controls are switched first (a run may have
    # ended meanwhile: its attention kinds), as for a change of source.
    triggers = [c.change for c in inputs] + [gr.context.Context.root_block.load]
    if tab is not None:
        tab.select(switch, [source, kind], [intro, random_controls, go, kind],
                   api_visibility="private", queue=False, **quiet_progress)
        triggers.append(tab.select)
    gr.on(triggers, trigger_mode="always_last", **live)
