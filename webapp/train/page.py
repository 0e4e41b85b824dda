"""Train page: settings, live curves with step/ETA and Stop, then attention, snapshots and
translation. This module lays the page out and wires it; what each event does is in events.py."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import gradio as gr

from webapp.lab import Lab
from webapp.pages import links
from webapp.pages.common import t
from webapp.pages.viewport import width_input, with_width
from webapp.train.api import devices, tatoeba_offered, train_api
from webapp.train.events import (
    after_train,
    cached_hint,
    keep_handler,
    load_handler,
    mark_stale,
    on_model,
    on_show,
    on_task,
    on_translate,
    options,
    stop_handler,
    train_handler,
)
from webapp.train.sessions import TrainSessions
from webapp.train.train_config import (
    CHOICES,
    KINDS,
    LIMITS,
    MODELS,
    OFFERED,
    PAGE_FIELDS,
    TASKS,
    start_values,
)

DEFAULT_SENTENCE = "tom is calm ."  # a held-out sentence whose words are all in the vocabulary


def _link_fields(controls: dict) -> dict:
    """The Train page's controls for lesson links: the numbers in page_config's LIMITS."""
    ranged = {name: (controls[name], links.Range(*LIMITS[name], integer=True)) for name in LIMITS}
    return {**controls, **ranged}


def _radio(name: str, values: tuple[str, ...], value: str) -> gr.Radio:
    return gr.Radio(options(name, values), value=value, label=t(f"train.{name}"),
                    elem_id=f"train-{name}")


def _size(name: str, offer: dict, value: float) -> gr.Number | gr.Slider:
    """The control of a setting the page offers as a number: a slider where it names one, else
    a whole-number box (lesson links and page_config check its LIMITS)."""
    if "slider" in offer:
        low, high, step = offer["slider"]
        return gr.Slider(low, high, value=value, step=step, label=t(f"train.{name}"), min_width=140)
    return gr.Number(value, precision=0, label=t(f"train.{name}"), min_width=90)


def _setting_controls(first) -> dict:
    """The run's settings as controls, by name, in two rows: what to train (task, model, the
    choices the page offers, device, corpus), then its sizes (experiments.OFFERED) and seed."""
    with gr.Row():
        controls = {"task": _radio("task", TASKS, first.task),
                    "model": _radio("model", MODELS, first.model)}
        for name, offer in OFFERED.items():
            if "choices" in offer:  # the positional encoding
                controls[name] = _radio(name, offer["choices"], getattr(first, name))
        controls["device"] = gr.Dropdown(devices(), value="cpu", label=t("train.device"))
        controls["corpus"] = gr.Radio(options("corpus", ("bundled", "tatoeba")), value="bundled",
                                      label=t("corpus"), visible=tatoeba_offered(),
                                      elem_id="train-corpus")
    with gr.Row():
        for name, offer in OFFERED.items():
            if "choices" not in offer:
                controls[name] = _size(name, offer, getattr(first, name))
        controls["seed"] = gr.Number(first.seed, precision=0, label=t("seed"), min_width=90)
    return controls


@dataclass
class TrainPage:
    """The page's components, by what they show (built by :func:`_layout`, wired by
    :func:`_wire`)."""

    settings: dict  # name -> control, as the page lays them out
    share: Any
    start: Any
    stop: Any
    keep: Any
    clear: Any
    status: Any
    curves_hint: Any
    curves: Any
    gap: Any
    index: Any
    kind: Any
    show: Any
    snap: Any
    maps: Any
    maps_caption: Any
    preds_hint: Any
    preds: Any
    translate_box: Any
    sentence: Any
    translate: Any
    translation: Any
    alignment: Any
    vocab: Any
    compare: Any
    compare_runs: Any
    run_state: Any
    kept: Any
    width: Any


def build(lab: Lab, lesson_links: links.LessonLinks) -> None:
    """Lay out the page inside the current gr.Tab and wire its events; the app's ``lab`` holds
    each browser's stop flag and last run (``lab.sessions``, shared with the multi-head
    explorer), the run cache and the training line; ``lesson_links`` the app's links."""
    sessions = lab.sessions
    first = start_values()  # the page as it opens: the library's preset, PAGE_START's steps
    gr.Markdown(t("train.intro"))
    page = _layout(first, sessions)
    # A link names the settings as page_config does, then the views of a finished run.
    lesson_links.register("train", _link_fields({
        **page.settings, "seed": (page.settings["seed"], links.Range(0, 10**6, integer=True)),
        "index": (page.index, links.Range(0, 255, integer=True)), "kind": page.kind,
        "sentence": (page.sentence, links.Text(200, r"[\w\s.,;:!?'’-]"))}), page.share,
        note=lambda values, lang: cached_hint(lab, values, lang),
        # a Transformer splits d_model over its heads (the GRU model and the kernel task have none)
        check=links.divisible("d_model", "heads",
                              when=lambda v: v.get("model") == "transformer" and v.get("task") != "kernel"))
    _wire(page, lab, lesson_links)


def _layout(first, sessions: TrainSessions) -> TrainPage:
    """The components, top to bottom: settings, buttons, status and curves, the attention
    view, predictions, translation, and the kept runs' comparison."""
    settings = _setting_controls(first)
    share = links.copy_row("train")
    with gr.Row():
        start = gr.Button(t("train.start"), variant="primary", elem_id="train-start")
        # Live only while a run trains or waits: red and clickable with nothing to stop misled
        # (issue 26, item 8)
        stop = gr.Button(t("train.stop"), variant="stop", elem_id="train-stop", interactive=False)
        keep = gr.Button(t("train.compare"), elem_id="train-keep")
        clear = gr.Button(t("train.clear"))
    status = gr.Markdown(elem_id="train-status")
    # Before the first run: a sentence, not an empty plot or table (start_shows swaps them).
    curves_hint = gr.Markdown(t("train.curves_hint"), elem_id="train-curves-hint")
    curves = gr.Plot(label=t("train.curves"), elem_id="train-curves", visible=False)
    gap = gr.Markdown(elem_id="train-gap")
    with gr.Row():
        index = gr.Number(0, precision=0, label=t("train.example"), min_width=120)
        kind = gr.Radio(options("kind", KINDS), value="cross", label=t("train.kind"),
                        elem_id="train-kind")
        show = gr.Button(t("train.show"), elem_id="train-show")
    # Before any run the page shows the untrained model: the slider reads 0 (it read 16 / 16).
    snap = gr.Slider(0, 16, value=0, step=1, label=t("train.snap_label"),
                     elem_id="train-snap")
    maps = gr.Plot(label=t("train.maps"), elem_id="train-maps")
    maps_caption = gr.Markdown(elem_id="train-maps-caption")
    preds_hint = gr.Markdown(t("train.preds_hint"), elem_id="train-preds-hint")
    # "hidden": out of sight but kept in the page, so a new run can clear it where it stands
    preds = gr.Dataframe(label=t("train.preds"), interactive=False, wrap=True, elem_id="train-preds",
                         visible="hidden")
    # Translating a sentence only means something for the translate task: shown for it alone.
    with gr.Column(visible=first.task == "translate", elem_id="train-translate-box") as translate_box:
        with gr.Row():
            sentence = gr.Textbox(DEFAULT_SENTENCE, label=t("train.sentence"),
                                  elem_id="train-sentence")
            translate = gr.Button(t("train.translate"), elem_id="train-translate")
        translation = gr.Markdown(elem_id="train-translation")
        alignment = gr.Plot(label=t("train.alignment"), elem_id="train-alignment", visible=False)
        with gr.Accordion(t("train.vocab"), open=False):
            vocab = gr.Markdown(elem_id="train-vocab")
    compare = gr.Plot(label=t("train.compare_plot"), elem_id="train-compare", visible=False)
    compare_runs = gr.Dataframe(label=t("train.compare_table"), interactive=False, visible=False,
                                elem_id="train-compare-table")
    # Idle sessions give their model and kept runs back (issue 12: bounded memory per session).
    run_state = gr.State(None, time_to_live=sessions.ttl_s)
    kept = gr.State({}, time_to_live=sessions.ttl_s)
    width = width_input()  # the browser's width (with_width): a phone gets two heads per row
    return TrainPage(settings, share, start, stop, keep, clear, status, curves_hint, curves, gap,
                     index, kind, show, snap, maps, maps_caption, preds_hint, preds, translate_box,
                     sentence, translate, translation, alignment, vocab, compare, compare_runs,
                     run_state, kept, width)


def _wire(p: TrainPage, lab: Lab, lesson_links: links.LessonLinks) -> None:
    """Connect the components to the events (webapp.train.events)."""
    sessions = lab.sessions
    # The Train click hands the settings over in page_config's order (scripts post them so)
    given = ("task", *CHOICES)
    shown = [p.maps, p.preds, p.maps_caption, p.translation, p.alignment, p.vocab, p.gap]
    outs = [p.curves, p.status, p.run_state, *shown, p.curves_hint]
    # A run shows its curves at once; its predictions and alignment wait for the end of the run.
    p.start.click(lambda: (gr.update(visible=True), gr.update(visible=False),
                           gr.update(visible="hidden"), gr.update(visible=True),
                           gr.update(visible=False), gr.update(interactive=True)), None,
                  [p.curves, p.curves_hint, p.preds, p.preds_hint, p.alignment, p.stop],
                  queue=False, api_visibility="private")
    # The status line says step, time and ETA in the page's language; Gradio's own progress
    # ("0.2s Training: step 167 / 1500 … 11.1%") beside it went to the hidden sink.
    event = p.start.click(train_handler(lab, given), [p.settings[name] for name in given],
                          outs, concurrency_id="train", api_visibility="private",
                          show_progress="hidden")
    event.then(lambda: gr.update(interactive=False), None, [p.stop], queue=False,
               api_visibility="private")  # the run ended (done, stopped or refused)
    event.then(after_train, [p.run_state, p.index, p.kind, p.width],
               [p.maps, p.preds, p.maps_caption, p.vocab, p.gap, p.snap, p.status,
                p.translation, p.alignment, p.kind],
               api_visibility="private", js=with_width(4)).then(
        lambda run: (gr.update(visible=True), gr.update(visible=False)) if run is not None
        and run.summary else (gr.skip(), gr.skip()), [p.run_state], [p.preds, p.preds_hint],
        api_visibility="private", queue=False)
    p.stop.click(stop_handler(sessions), None, None, queue=False, api_visibility="private")
    view = dict(fn=on_show, inputs=[p.run_state, p.index, p.kind, p.snap, p.status, p.width],
                outputs=[p.maps, p.preds, p.maps_caption, p.status], api_visibility="private",
                show_progress="hidden", js=with_width(6))
    p.show.click(**view)
    redraw = gr.on([p.kind.change, p.index.submit, p.snap.change], **view)
    for trigger in (p.translate.click, p.sentence.submit):
        trigger(on_translate, [p.run_state, p.sentence], [p.translation, p.alignment, p.status],
                api_visibility="private")
    p.keep.click(keep_handler(sessions.max_kept_runs), [p.run_state, p.kept],
                 [p.kept, p.compare, p.compare_runs, p.status], api_visibility="private")
    gone = gr.update(value=None, visible=False)
    p.clear.click(lambda: ({}, gone, gone), None, [p.kept, p.compare, p.compare_runs],
                  api_visibility="private")
    task, model = p.settings["task"], p.settings["model"]
    task.input(on_task, [task], [p.settings[name] for name in PAGE_FIELDS],
               api_visibility="private")
    task.change(lambda task: gr.update(visible=task == "translate"), [task], [p.translate_box],
                queue=False, api_visibility="private")
    # Bahdanau's GRU seq2seq has cross-attention only: offer only that, as the explorer does
    # A redraw still queued from before the switch carries a kind the new choices lack (say
    # encoder_self for Bahdanau), which Gradio's Radio refuses with an error toast (a flake of
    # the zh Bahdanau browser test under load): the switch cancels it; kind.change redraws.
    model.change(on_model, [model, p.kind], [p.kind], queue=False, api_visibility="private",
                 cancels=[redraw])
    gr.on([p.settings[name].input for name in given if name not in ("device", "corpus")],
          mark_stale, [p.run_state], [p.status], api_visibility="private", queue=False)
    # First load: the untrained model's attention, so the page shows what training will change.
    gr.on(None, load_handler(lesson_links), [p.width], [p.maps, p.maps_caption], api_visibility="private",
          concurrency_id="play", show_progress="hidden", js=with_width(1))
    gr.api(train_api(lab), api_name="train", concurrency_id="train")
