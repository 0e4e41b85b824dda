"""Train page: settings, live curves with step/ETA and Stop, then attention, snapshots and translation."""

from __future__ import annotations

import gradio as gr

from transformer_lab.message import Refused
from webapp.i18n import Term, input_error
from webapp.lab import Lab
from webapp.pages import links
from webapp.pages.common import friendly, lang_of, message, t, tr, warn
from webapp.pages.sign_in import client_of
from webapp.pages.viewport import head_grid, width_input, with_width
from webapp.train.api import devices, run_training, tatoeba_offered, train_api
from webapp.train.train_config import (
    CHOICES,
    KINDS,
    LIMITS,
    MODELS,
    OFFERED,
    PAGE_FIELDS,
    TASKS,
    start_values,
    typed,
)
from webapp.train.view import (
    accuracy_gap_text,
    caption,
    check_name,
    compare_table,
    done_status,
    empty_predictions,
    kept_name,
    kinds_for,
    localise_predictions,
    loss_gap_text,
    loss_names,
    snapshot_caption,
    translation_text,
)

DEFAULT_SENTENCE = "tom is calm ."  # a held-out sentence whose words are all in the vocabulary
ALL_METRICS = ("loss", "token_accuracy", "exact_match")


def live_curves(run, lang: str) -> tuple:
    """The run's curves and the hint above them: until the first evaluation has measured the
    accuracies, only the loss panel, and a sentence saying when the accuracy panels come."""
    from transformer_lab.figures import training_curves
    from transformer_lab.tables import word

    h = run.history
    evaluated = "phase" in h.columns and bool((h["phase"] == "eval").any())
    fig = training_curves(h, metrics=ALL_METRICS if evaluated else ALL_METRICS[:1], lang=lang,
                          stack=True)
    # The legend says what each loss line is measured on and how (translate checks on training
    # pairs, in eval mode): not a bare "eval loss", which read as held-out validation.
    for column, name in loss_names(run.config, lang).items():
        fig.update_traces(name=name, selector={"name": word(column, lang)})
    if run.config.task == "translate":  # its checks run on training pairs: say so on the panels
        for title in fig.layout.annotations:
            if title.text in (word("token_accuracy", lang), word("exact_match", lang)):
                title.text = tr("curve.on_training_pairs", lang, metric=title.text)
    hint = gr.update(visible=False) if evaluated else gr.update(
        value=tr("train.acc_wait", lang, every=run.config.eval_every), visible=True)
    return fig, hint


def snapshot_maps(run, index: int, kind: str, snap_index: int, lang: str,
                  width: int | None = None) -> tuple:
    """The head grid at slider position ``snap_index`` (earlier snapshots: held-out example 0;
    the last: the trained model on example ``index``) and its caption, which names the
    snapshot's training step: the slider counts snapshots, not steps."""
    from webapp.train.training import attention_for

    if run is None:
        raise input_error("train_first")
    snaps = run.snapshots
    if snaps and 0 <= int(snap_index) < len(snaps) - 1:  # an earlier snapshot of example 0
        shot = snaps[int(snap_index)]
        if kind not in shot["maps"]:
            raise input_error("no_attention", model=run.model_name.capitalize(), kind=Term(kind))
        layer_maps, (q, k) = shot["maps"][kind], shot["labels"][kind]
    else:  # the trained model, on the chosen example
        layer_maps, q, k = attention_for(run, int(index), kind)
    note = snapshot_caption(run, int(snap_index), lang) if snaps and run.summary else ""
    fig = head_grid(layer_maps, q, k, lang, width)
    return fig, "\n\n".join(x for x in (note, caption(run, kind, lang)) if x)


def compare_curves(kept: dict, lang: str):
    """The kept runs' curves on shared axes; each dashed loss line is named for what it is
    measured on (translate: training pairs), as on a single run's curves."""
    from transformer_lab.figures import training_curves
    from transformer_lab.tables import word

    title = " vs ".join(kept)  # one run's legend names metrics, so the title names the runs
    fig = training_curves(None, compare={k: v["history"] for k, v in kept.items()}, title=title,
                          lang=lang, stack=True)
    for name, item in kept.items():
        fig.update_traces(name=f"{name} · {check_name(item['run'].config, lang)}",
                          selector={"name": f"{name} · {word('eval_loss', lang)}"})
    return fig


def cached_hint(lab: Lab, values: dict, lang: str) -> str:
    """When a lesson link's settings are a run the app's cache holds: say that Train replays it
    at once (the link itself starts nothing)."""
    from webapp.services import run_cache
    from webapp.train.training import page_config

    try:
        config = page_config(values["task"], **{k: values[k] for k in CHOICES})
        cache = lab.run_cache()
        hit = cache is not None and cache.contains(run_cache.run_key(config))
    except Exception:  # noqa: BLE001 - a hint only: an odd setting or a broken cache shows none
        return ""
    return tr("link.cached", lang) if hit else ""


def _link_fields(controls: dict) -> dict:
    """The Train page's controls for lesson links: the numbers in page_config's LIMITS."""
    ranged = {name: (controls[name], links.Range(*LIMITS[name], integer=True)) for name in LIMITS}
    return {**controls, **ranged}


def _options(prefix: str, values: tuple[str, ...]) -> list[tuple]:
    return [(t(f"{prefix}.{v}"), v) for v in values]


def _radio(name: str, values: tuple[str, ...], value: str) -> gr.Radio:
    return gr.Radio(_options(name, values), value=value, label=t(f"train.{name}"),
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
        controls["corpus"] = gr.Radio(_options("corpus", ("bundled", "tatoeba")), value="bundled",
                                      label=t("corpus"), visible=tatoeba_offered(),
                                      elem_id="train-corpus")
    with gr.Row():
        for name, offer in OFFERED.items():
            if "choices" not in offer:
                controls[name] = _size(name, offer, getattr(first, name))
        controls["seed"] = gr.Number(first.seed, precision=0, label=t("seed"), min_width=90)
    return controls


def build(lab: Lab, lesson_links: links.LessonLinks) -> None:
    """Lay out the page inside the current gr.Tab and wire its events; the app's ``lab`` holds
    each browser's stop flag and last run (``lab.sessions``, shared with the multi-head
    explorer), the run cache and the training line."""
    sessions = lab.sessions
    from transformer_lab.attention_plot import alignment_heatmap

    first = start_values()  # the page as it opens: the library's preset, PAGE_START's steps
    gr.Markdown(t("train.intro"))
    settings = _setting_controls(first)  # name -> control, as the page lays them out
    task, model = settings["task"], settings["model"]
    # The Train click hands the settings over in page_config's order (scripts post them so)
    given = ("task", *CHOICES)
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
        kind = gr.Radio(_options("kind", KINDS), value="cross", label=t("train.kind"),
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
    from webapp.train.sessions import cap_kept, light_run

    # Idle sessions give their model and kept runs back (issue 12: bounded memory per session).
    run_state = gr.State(None, time_to_live=sessions.ttl_s)
    kept = gr.State({}, time_to_live=sessions.ttl_s)
    width = width_input()  # the browser's width (with_width): a phone gets two heads per row

    # A link names the settings as page_config does, then the views of a finished run.
    lesson_links.register("train", _link_fields({
        **settings, "seed": (settings["seed"], links.Range(0, 10**6, integer=True)),
        "index": (index, links.Range(0, 255, integer=True)), "kind": kind,
        "sentence": (sentence, links.Text(200, r"[\w\s.,;:!?'’-]"))}), share,
        note=lambda values, lang: cached_hint(lab, values, lang),
        # a Transformer splits d_model over its heads (the GRU model and the kernel task have none)
        check=links.divisible("d_model", "heads",
                              when=lambda v: v.get("model") == "transformer" and v.get("task") != "kernel"))
    shown = [maps, preds, maps_caption, translation, alignment, vocab, gap]

    def on_train(request: gr.Request, *values):  # gradio puts the request first, then settings
        lang, session = lang_of(request), request.session_hash
        flag = sessions.start(session)  # the Stop click (another request) sets it
        blank = (None, None, "", "", None, "", "")  # a new run clears the previous run's outputs
        keep = [gr.skip()] * 8  # the shown outputs and the curves' hint stay as they are
        from webapp.train.train_queue import cached_note
        from webapp.train.training import page_config

        try:
            yield None, tr("training", lang) + " …", None, *blank, gr.skip()
            run, cached = None, False
            config = page_config(**typed(dict(zip(given, values, strict=True))))
            for msg, run in run_training(lab, config, stop=flag, client=client_of(lab, request)):
                if "queued" in msg:  # waiting for a training turn: place, ETA, a cached offer
                    yield gr.skip(), msg["message"][lang], gr.skip(), *keep
                    continue
                cached = bool(msg.get("cached"))
                step, total, elapsed = msg["step"], msg["total"], msg["elapsed"]
                eta = elapsed / max(step, 1) * (total - step)
                text = tr("status.training", lang, step=step, total=total, elapsed=elapsed, eta=eta)
                fig, hint = live_curves(run, lang)
                yield fig, text, run, *keep[:7], hint
            sessions.put(session, run, address=client_of(lab, request).address)  # for the explorer
            fig, hint = live_curves(run, lang)
            yield (fig, done_status(run, lang) + (cached_note(lang) if cached else ""), run,
                   *keep[:7], hint)
        except Refused as err:  # one run per browser; Stop pressed while it waited
            yield gr.skip(), err.message[lang], gr.skip(), *keep
        except (ValueError, TypeError) as err:
            warn(message(err, lang), lang)
            yield gr.skip(), message(err, lang), gr.skip(), *keep
        finally:
            sessions.finish(session, flag)  # only this run's own flag

    def on_stop(request: gr.Request):
        sessions.stop(request.session_hash)

    @friendly(4)
    def on_show(run, index, kind, snap_index, current="", width=None, request: gr.Request = None):
        from webapp.train.training import predictions

        lang = lang_of(request)
        fig, cap = snapshot_maps(run, index, kind, snap_index, lang, width)
        # Clear only an earlier warning: the status may hold the run's Done line, and moving the
        # snapshot slider (which after_train does) must not wipe it.
        keep = gr.skip() if not str(current or "").startswith("⚠️") else ""
        return fig, localise_predictions(predictions(run), lang), cap, keep

    def after_train(run, index, kind, width, request: gr.Request):
        from webapp.train.training import predictions, vocabulary

        if run is None or not run.summary:  # training failed: its message stays in the status
            return (gr.skip(),) * 10
        lang = lang_of(request)
        last = len(run.snapshots) - 1
        kinds = kinds_for(run.model_name)  # Bahdanau: cross-attention only
        kind = kind if kind in kinds else "cross"
        grid, table, cap, problem = on_show(run, index, kind, last, "", width, request)
        if isinstance(problem, str) and problem:  # the table is shown next: headers, not "1 2 3"
            table = empty_predictions(lang)
        words = vocabulary(run)
        vocab_text = f"{len(words)}: " + " · ".join(f"`{w}`" for w in words) if words else ""
        gap_text = ""
        s = run.summary
        if run.task_name == "translate":  # its validation pairs are training pairs: show held-out
            gap_text = translation_text(run, lang, predictions(run))
        elif "train_token_acc" in s and "token_acc" in s:
            gap_text = accuracy_gap_text(s["train_token_acc"], s["token_acc"], lang)
        gap_text = "\n\n".join(x for x in (gap_text, loss_gap_text(run, lang)) if x)
        slider = gr.update(maximum=max(last, 1), value=last)
        kind_box = gr.update(choices=_options("kind", kinds), value=kind)
        return (grid, table, cap, vocab_text, gap_text, slider, problem or gr.skip(), gr.skip(),
                gr.skip(), kind_box)

    @friendly(3)
    def on_translate(run, text, request: gr.Request):
        from webapp.train.training import translate as translate_one

        lang = lang_of(request)
        if run is None or run.task_name != "translate":
            raise input_error("train_translate_first")
        r = translate_one(run, text)
        lines = [f"**{r['translation']}**", tr(f"train.seen.{r['seen']}", lang)]
        if r["normalised"]:  # the model reads sentences as the corpus writes them
            lines.append(tr("train.read_as", lang, sentence=r["read_as"]))
        if r["reference"] is not None:
            lines.append(tr("train.reference_line", lang, reference=r["reference"], bleu=r["bleu"]))
        if r["unknown"]:
            lines.append(tr("train.unknown_line", lang, words=", ".join(r["unknown"])))
        fig = alignment_heatmap(r["cross"], r["source_tokens"], r["output_tokens"], lang=lang)
        return "\n\n".join(lines), gr.update(value=fig, visible=True), ""

    @friendly(4)
    def on_keep(run, kept, request: gr.Request):
        lang = lang_of(request)
        if run is None or not run.summary:
            raise input_error("train_first")
        name = kept_name(run, len(kept) + 1, lang)
        # Kept runs are drawn from their history and summary only; at most a few per session.
        kept = cap_kept({**kept, name: {"history": run.history, "run": light_run(run)}},
                        sessions.max_kept_runs)
        # The status keeps its "Done: …" line (it was wiped).
        return (kept, gr.update(value=compare_curves(kept, lang), visible=True),
                gr.update(value=compare_table(kept, lang), visible=True), gr.skip())

    def on_task(task):
        from webapp.train.training import page_preset

        p = page_preset(task)
        return tuple(getattr(p, name) for name in PAGE_FIELDS)

    def on_load(width, request: gr.Request):
        from webapp.train.train_config import CHOICES, PAGE_START, page_config
        from webapp.train.training import first_view, preview

        lang = lang_of(request)
        c = first_view()
        linked = lesson_links.opened_values(request, "train")  # a lesson link's settings, if any
        if linked:
            try:
                c = page_config(linked.get("task", PAGE_START["task"]),
                                **{"steps": PAGE_START["steps"],
                                   **{k: v for k, v in linked.items() if k in CHOICES}})
            except (ValueError, TypeError):  # what the link's notice says; the usual preview
                c = first_view()
        try:
            maps_, labels = preview(c)
        except Exception:  # noqa: BLE001 - a link's setup that cannot preview: the usual one
            c = first_view()
            maps_, labels = preview(c)
        q, k = labels["cross"]
        said = (tr("cap.untrained", lang) if c.task == "reverse" else
                tr("cap.untrained_task", lang, task=tr(f"task.{c.task}", lang)))
        return head_grid(maps_["cross"], q, k, lang, width), said

    def on_model(model, kind):
        kinds = kinds_for(model)
        return gr.update(choices=_options("kind", kinds), value=kind if kind in kinds else "cross")

    def mark_stale(run, request: gr.Request):
        return tr("stale", lang_of(request)) if run is not None else gr.skip()

    outs = [curves, status, run_state, *shown, curves_hint]
    # A run shows its curves at once; its predictions and alignment wait for the end of the run.
    start.click(lambda: (gr.update(visible=True), gr.update(visible=False), gr.update(visible="hidden"),
                         gr.update(visible=True), gr.update(visible=False),
                         gr.update(interactive=True)), None,
                [curves, curves_hint, preds, preds_hint, alignment, stop], queue=False,
                api_visibility="private")
    # The status line says step, time and ETA in the page's language; Gradio's own progress
    # ("0.2s Training: step 167 / 1500 … 11.1%") beside it went to the hidden sink.
    event = start.click(on_train, [settings[name] for name in given], outs, concurrency_id="train",
                        api_visibility="private", show_progress="hidden")
    event.then(lambda: gr.update(interactive=False), None, [stop], queue=False,
               api_visibility="private")  # the run ended (done, stopped or refused)
    event.then(after_train, [run_state, index, kind, width],
               [maps, preds, maps_caption, vocab, gap, snap, status, translation, alignment, kind],
               api_visibility="private", js=with_width(4)).then(
        lambda run: (gr.update(visible=True), gr.update(visible=False)) if run is not None
        and run.summary else (gr.skip(), gr.skip()), [run_state], [preds, preds_hint],
        api_visibility="private", queue=False)
    stop.click(on_stop, None, None, queue=False, api_visibility="private")
    view = dict(fn=on_show, inputs=[run_state, index, kind, snap, status, width],
                outputs=[maps, preds, maps_caption, status], api_visibility="private",
                show_progress="hidden", js=with_width(6))
    show.click(**view)
    redraw = gr.on([kind.change, index.submit, snap.change], **view)
    translate.click(on_translate, [run_state, sentence], [translation, alignment, status],
                    api_visibility="private")
    sentence.submit(on_translate, [run_state, sentence], [translation, alignment, status],
                    api_visibility="private")
    keep.click(on_keep, [run_state, kept], [kept, compare, compare_runs, status],
               api_visibility="private")
    gone = gr.update(value=None, visible=False)
    clear.click(lambda: ({}, gone, gone), None, [kept, compare, compare_runs],
                api_visibility="private")
    task.input(on_task, [task], [settings[name] for name in PAGE_FIELDS],
               api_visibility="private")
    task.change(lambda task: gr.update(visible=task == "translate"), [task], [translate_box],
                queue=False, api_visibility="private")
    # Bahdanau's GRU seq2seq has cross-attention only: offer only that, as the explorer does
    # A redraw still queued from before the switch carries a kind the new choices lack (say
    # encoder_self for Bahdanau), which Gradio's Radio refuses with an error toast (a flake of
    # the zh Bahdanau browser test under load): the switch cancels it; kind.change redraws.
    model.change(on_model, [model, kind], [kind], queue=False, api_visibility="private",
                 cancels=[redraw])
    gr.on([settings[name].input for name in given if name not in ("device", "corpus")],
          mark_stale, [run_state], [status], api_visibility="private", queue=False)
    # First load: the untrained model's attention, so the page shows what training will change.
    gr.on(None, on_load, [width], [maps, maps_caption], api_visibility="private",
          concurrency_id="play", show_progress="hidden", js=with_width(1))
    gr.api(train_api(lab), api_name="train", concurrency_id="train")
