"""Train page: settings, live curves with step/ETA and Stop, then attention, snapshots and translation."""

from __future__ import annotations

import os
import threading

import gradio as gr

from webapp.pages.common import friendly, lang_of, message, t, tr, warn
from webapp.pages.viewport import head_grid, width_input, with_width
from webapp.services.train_config import API_STEPS, KINDS, MODELS, PES, TASKS, start_values
from webapp.views.train_view import (
    caption,
    compare_table,
    done_status,
    kept_name,
    localise_predictions,
    translation_text,
)

# Stop flags by browser session: the Stop click is another request than the training stream.
_STOPS: dict[str, threading.Event] = {}
GPU_SECONDS = 120  # one ZeroGPU call; the step ceiling in webapp.services.training keeps runs inside
DEFAULT_SENTENCE = "tom is calm ."  # a held-out sentence whose words are all in the vocabulary
# The last finished run of each browser session, for the multi-head explorer (another tab).
_LAST: dict[str, object] = {}
MAX_SESSIONS = 32  # oldest runs are dropped first: each holds a small model


def last_run(session: str | None):
    """The run this browser session trained last on the Train page, or None."""
    return _LAST.get(session or "")


def _remember(session: str, run) -> None:
    _LAST.pop(session, None)
    _LAST[session] = run
    while len(_LAST) > MAX_SESSIONS:
        _LAST.pop(next(iter(_LAST)))


def _gpu(fn):
    """spaces.GPU on a Hugging Face Space with ZeroGPU; elsewhere (no `spaces`) a no-op."""
    try:
        import spaces
    except ImportError:
        return fn
    return spaces.GPU(duration=GPU_SECONDS)(fn)


def devices() -> list[str]:
    """Device choices without importing torch: cuda only where a GPU is visible."""
    found = ["auto", "cpu"]
    if os.path.exists("/dev/nvidiactl") or os.environ.get("SPACES_ZERO_GPU"):
        found.append("cuda")
    return found


@_gpu
def _stream(run):
    from webapp.services.training import stream

    yield from stream(run)


def run_training(config, stop=None, client=None):
    """Yield (message, run) while training the ExperimentConfig ``config`` (built by
    training.page_config); the run holds records, snapshots, weights, summary. A cached run
    replays at once; otherwise messages with "queued" come while it waits its turn
    (webapp.services.train_queue; ``client``: the fair queue's ClientKey)."""
    from webapp.services import training
    from webapp.services.train_queue import run_or_replay

    run = training.new_run(config, stop)
    for msg in run_or_replay(run, _stream, client):
        yield msg, (run if "queued" in msg else training.apply(run, msg))


_API = start_values().replace(steps=API_STEPS)  # the train API's defaults: a quick reverse run


def train(task: str = _API.task, heads: int = _API.heads, d_model: int = _API.d_model,
          layers: int = _API.layers, d_ff: int = _API.d_ff, dropout: float = _API.dropout,
          pe: str = _API.pe, steps: int = _API.steps, device: str = _API.device,
          seed: int = _API.seed, model: str = _API.model) -> dict:
    """Train a model with the Train page's settings; returns settings, summary (translate: scores
    on held-out sentences) and the validation rows of the history. New parameters will always
    come with defaults."""
    from webapp.services.training import page_config

    run = None
    try:
        config = page_config(task, int(heads), int(d_model), int(layers), int(d_ff), float(dropout),
                             pe, int(steps), device, int(seed), model)
        for _, run in run_training(config):  # noqa: B007
            pass  # the API returns only the finished run
    except (ValueError, TypeError) as err:
        raise gr.Error(str(err)) from None
    evals = run.history[run.history["phase"] == "eval"]
    return {"task": task, "settings": run.config.as_dict(), "summary": run.summary,
            "eval": evals.drop(columns=["phase"]).to_dict(orient="records")}


def _tatoeba_offered() -> bool:
    """Offer D2L's Tatoeba corpus where the host likely has internet: a Space, or LAB_TATOEBA=1."""
    return bool(os.environ.get("SPACE_ID") or os.environ.get("LAB_TATOEBA") == "1")


def _options(prefix: str, values: tuple[str, ...]) -> list[tuple]:
    return [(t(f"{prefix}.{v}"), v) for v in values]


def build() -> None:
    """Lay out the page inside the current gr.Tab and wire its events."""
    from transformer_lab.figures import alignment_heatmap, training_curves

    first = start_values()  # the page as it opens: the library's preset, PAGE_START's steps
    gr.Markdown(t("train.intro"))
    with gr.Row():
        task = gr.Radio(_options("task", TASKS), value=first.task, label=t("train.task"),
                        elem_id="train-task")
        model = gr.Radio(_options("model", MODELS), value=first.model, label=t("train.model"),
                         elem_id="train-model")
        pe = gr.Radio(_options("pe", PES), value=first.pe, label=t("train.pe"), elem_id="train-pe")
        device = gr.Dropdown(devices(), value="cpu", label=t("train.device"))
        corpus = gr.Radio(_options("corpus", ("bundled", "tatoeba")), value="bundled",
                          label=t("corpus"), visible=_tatoeba_offered(), elem_id="train-corpus")
    with gr.Row():
        heads = gr.Number(first.heads, precision=0, label=t("train.heads"), min_width=90)
        d_model = gr.Number(first.d_model, precision=0, label=t("train.d_model"), min_width=90)
        layers = gr.Number(first.layers, precision=0, label=t("train.layers"), min_width=90)
        d_ff = gr.Number(first.d_ff, precision=0, label=t("train.d_ff"), min_width=90)
        dropout = gr.Slider(0.0, 0.5, value=first.dropout, step=0.05, label=t("train.dropout"),
                            min_width=140)
        steps = gr.Number(first.steps, precision=0, label=t("train.steps"), elem_id="train-steps",
                          min_width=90)
        seed = gr.Number(first.seed, precision=0, label=t("seed"), min_width=90)
    with gr.Row():
        start = gr.Button(t("train.start"), variant="primary", elem_id="train-start")
        stop = gr.Button(t("train.stop"), variant="stop", elem_id="train-stop")
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
    snap = gr.Slider(0, 16, value=16, step=1, label=t("train.snapshot"), elem_id="train-snap")
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
    from webapp.services.session_memory import cap_kept, light_run, session_ttl_s

    # Idle sessions give their model and kept runs back (issue 12: bounded memory per session).
    run_state = gr.State(None, time_to_live=session_ttl_s())
    kept = gr.State({}, time_to_live=session_ttl_s())
    width = width_input()  # the browser's width (with_width): a phone gets two heads per row

    settings = [task, heads, d_model, layers, d_ff, dropout, pe, steps, device, seed, model, corpus]
    shown = [maps, preds, maps_caption, translation, alignment, vocab, gap]

    def on_train(task, heads, d_model, layers, d_ff, dropout, pe, steps, device, seed, model,
                 corpus, request: gr.Request, progress=gr.Progress()):  # noqa: B008 - Gradio's idiom
        lang, flag = lang_of(request), threading.Event()
        _STOPS[request.session_hash] = flag
        blank = (None, None, "", "", None, "", "")  # a new run clears the previous run's outputs
        from webapp.pages.exercises import client_of
        from webapp.services.train_queue import TrainRefused, cached_note
        from webapp.services.training import page_config

        try:
            yield None, tr("training", lang) + " …", None, *blank
            run, cached = None, False
            config = page_config(task, int(heads), int(d_model), int(layers), int(d_ff),
                                 float(dropout), pe, int(steps), device, int(seed), model, corpus)
            for msg, run in run_training(config, stop=flag, client=client_of(request)):
                if "queued" in msg:  # waiting for a training turn: place, ETA, a cached offer
                    yield gr.skip(), msg["message"][lang], gr.skip(), *[gr.skip()] * 7
                    continue
                cached = bool(msg.get("cached"))
                step, total, elapsed = msg["step"], msg["total"], msg["elapsed"]
                eta = elapsed / max(step, 1) * (total - step)
                text = tr("status.training", lang, step=step, total=total, elapsed=elapsed, eta=eta)
                progress(msg["fraction"], desc=text)
                yield training_curves(run.history, lang=lang, stack=True), text, run, *[gr.skip()] * 7
            _remember(request.session_hash, run)
            yield (training_curves(run.history, lang=lang, stack=True),
                   done_status(run, lang) + (cached_note(lang) if cached else ""), run,
                   *[gr.skip()] * 7)
        except TrainRefused as err:  # one run per browser; Stop pressed while it waited
            yield gr.skip(), err.message[lang], gr.skip(), *[gr.skip()] * 7
        except (ValueError, TypeError) as err:
            warn(message(err, lang), lang)
            yield gr.skip(), message(err, lang), gr.skip(), *[gr.skip()] * 7
        finally:
            # Only our own flag: a finished run's generator may be closed after the next run of
            # the same browser registered its flag, and must not take that one away.
            if _STOPS.get(request.session_hash) is flag:
                _STOPS.pop(request.session_hash, None)

    def on_stop(request: gr.Request):
        if request.session_hash in _STOPS:
            _STOPS[request.session_hash].set()

    def _maps(run, index, kind, snap_index, lang, width=None):
        from webapp.services.training import attention_for

        if run is None:
            raise ValueError("train a model first")
        snaps = run.snapshots
        if snaps and 0 <= int(snap_index) < len(snaps) - 1:  # an earlier snapshot of example 0
            shot = snaps[int(snap_index)]
            if kind not in shot["maps"]:
                raise ValueError(f"the {run.model_name} model has no {kind} attention")
            layer_maps, (q, k) = shot["maps"][kind], shot["labels"][kind]
            note = tr("cap.snap", lang, step=shot["step"], total=run.summary.get("steps", "?"))
        else:
            layer_maps, q, k = attention_for(run, int(index), kind)
            note = ""
        fig = head_grid(layer_maps, q, k, lang, width)
        return fig, "\n\n".join(x for x in (note, caption(run, kind, lang)) if x)

    @friendly(4)
    def on_show(run, index, kind, snap_index, current="", width=None, request: gr.Request = None):
        from webapp.services.training import predictions

        lang = lang_of(request)
        fig, cap = _maps(run, index, kind, snap_index, lang, width)
        # Clear only an earlier warning: the status may hold the run's Done line, and moving the
        # snapshot slider (which after_train does) must not wipe it.
        keep = gr.skip() if not str(current or "").startswith("⚠️") else ""
        return fig, localise_predictions(predictions(run), lang), cap, keep

    def after_train(run, index, kind, width, request: gr.Request):
        from webapp.services.training import vocabulary

        if run is None or not run.summary:  # training failed: its message stays in the status
            return (gr.skip(),) * 9
        lang = lang_of(request)
        last = len(run.snapshots) - 1
        grid, table, cap, problem = on_show(run, index, kind, last, "", width, request)
        words = vocabulary(run)
        vocab_text = f"{len(words)}: " + " · ".join(f"`{w}`" for w in words) if words else ""
        gap_text = ""
        s = run.summary
        if run.task_name == "translate":  # its validation pairs are training pairs: show held-out
            gap_text = translation_text(run, lang)
        elif "train_token_acc" in s and "token_acc" in s:
            gap_text = tr("cap.gap", lang, train=s["train_token_acc"], decoded=s["token_acc"])
        slider = gr.update(maximum=max(last, 1), value=last)
        return grid, table, cap, vocab_text, gap_text, slider, problem or gr.skip(), gr.skip(), gr.skip()

    @friendly(3)
    def on_translate(run, text, request: gr.Request):
        from webapp.services.training import translate as translate_one

        lang = lang_of(request)
        if run is None or run.task_name != "translate":
            raise ValueError("train a model on the 'translate' task first")
        r = translate_one(run, text)
        lines = [f"**{r['translation']}**", tr(f"train.seen.{r['seen']}", lang)]
        if r["reference"] is not None:
            lines.append(f"{tr('train.reference', lang)}: {r['reference']} · BLEU (D2L, k=2): "
                         f"{r['bleu']:.3f}")
        if r["unknown"]:
            lines.append(f"⚠️ {tr('train.unknown', lang)}: {', '.join(r['unknown'])}")
        fig = alignment_heatmap(r["cross"], r["source_tokens"], r["output_tokens"], lang=lang)
        return "\n\n".join(lines), gr.update(value=fig, visible=True), ""

    @friendly(4)
    def on_keep(run, kept, request: gr.Request):
        lang = lang_of(request)
        if run is None or not run.summary:
            raise ValueError("train a model first")
        name = kept_name(run, len(kept) + 1)
        # Kept runs are drawn from their history and summary only; at most a few per session.
        kept = cap_kept({**kept, name: {"history": run.history, "run": light_run(run)}})
        title = " vs ".join(kept)  # one run's legend names metrics, so the title names the runs
        histories = {k: v["history"] for k, v in kept.items()}
        return (kept, gr.update(value=training_curves(None, compare=histories, title=title,
                                                      lang=lang, stack=True), visible=True),
                gr.update(value=compare_table(kept, lang), visible=True), "")

    def on_task(task):
        from webapp.services.training import page_preset

        p = page_preset(task)
        return p.heads, p.d_model, p.layers, p.d_ff, p.dropout, p.pe, p.steps

    def on_load(width, request: gr.Request):
        from webapp.services.training import first_view, preview

        lang = lang_of(request)
        maps_, labels = preview(first_view())
        q, k = labels["cross"]
        return head_grid(maps_["cross"], q, k, lang, width), tr("cap.untrained", lang)

    def mark_stale(run, request: gr.Request):
        return tr("stale", lang_of(request)) if run is not None else gr.skip()

    outs = [curves, status, run_state, *shown]
    # A run shows its curves at once; its predictions and alignment wait for the end of the run.
    start.click(lambda: (gr.update(visible=True), gr.update(visible=False), gr.update(visible="hidden"),
                         gr.update(visible=True), gr.update(visible=False)), None,
                [curves, curves_hint, preds, preds_hint, alignment], queue=False,
                api_visibility="private")
    event = start.click(on_train, settings, outs, concurrency_id="train", api_visibility="private")
    event.then(after_train, [run_state, index, kind, width],
               [maps, preds, maps_caption, vocab, gap, snap, status, translation, alignment],
               api_visibility="private", js=with_width(4)).then(
        lambda run: (gr.update(visible=True), gr.update(visible=False)) if run is not None
        and run.summary else (gr.skip(), gr.skip()), [run_state], [preds, preds_hint],
        api_visibility="private", queue=False)
    stop.click(on_stop, None, None, queue=False, api_visibility="private")
    view = dict(fn=on_show, inputs=[run_state, index, kind, snap, status, width],
                outputs=[maps, preds, maps_caption, status], api_visibility="private",
                show_progress="hidden", js=with_width(6))
    show.click(**view)
    gr.on([kind.change, index.submit, snap.change], **view)
    translate.click(on_translate, [run_state, sentence], [translation, alignment, status],
                    api_visibility="private")
    sentence.submit(on_translate, [run_state, sentence], [translation, alignment, status],
                    api_visibility="private")
    keep.click(on_keep, [run_state, kept], [kept, compare, compare_runs, status],
               api_visibility="private")
    gone = gr.update(value=None, visible=False)
    clear.click(lambda: ({}, gone, gone), None, [kept, compare, compare_runs],
                api_visibility="private")
    task.input(on_task, [task], [heads, d_model, layers, d_ff, dropout, pe, steps],
               api_visibility="private")
    task.change(lambda task: gr.update(visible=task == "translate"), [task], [translate_box],
                queue=False, api_visibility="private")
    gr.on([c.input for c in (task, heads, d_model, layers, d_ff, dropout, pe, steps, seed, model)],
          mark_stale, [run_state], [status], api_visibility="private", queue=False)
    # First load: the untrained model's attention, so the page shows what training will change.
    gr.on(None, on_load, [width], [maps, maps_caption], api_visibility="private",
          concurrency_id="play", show_progress="hidden", js=with_width(1))
    gr.api(train, api_name="train", concurrency_id="train")
