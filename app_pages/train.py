"""Train page: settings, live curves with progress and Stop, then attention maps and translation."""

from __future__ import annotations

import os
import threading

import gradio as gr

from transformer_lab.figures import alignment_heatmap, attention_grid, training_curves

from .common import friendly, lang_of, message, t

# Stop flags by browser session: the Stop click is another request than the training stream.
_STOPS: dict[str, threading.Event] = {}
GPU_SECONDS = 120  # one ZeroGPU call; the step ceiling in app_support.training keeps runs inside


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
    from app_support.training import stream

    yield from stream(run)


def run_training(task="reverse", heads=4, d_model=32, layers=1, d_ff=64, dropout=0.0,
                 pe="sinusoidal", steps=300, device="cpu", seed=0, stop=None):  # fmt: skip
    """Yield (fraction done, run) while training; the run holds records, weights and summary."""
    from app_support import training

    s = training.settings(task, int(heads), int(d_model), int(layers), int(d_ff), float(dropout),
                          pe, int(steps), device, int(seed))  # fmt: skip
    run = training.new_run(task, s, stop)
    for msg in _stream(run):
        yield msg["fraction"], training.apply(run, msg)


def train(task: str = "reverse", heads: int = 4, d_model: int = 32, layers: int = 1,
          d_ff: int = 64, dropout: float = 0.0, pe: str = "sinusoidal", steps: int = 300,
          device: str = "cpu", seed: int = 0) -> dict:  # fmt: skip
    """Train a Transformer with the Train page's settings; returns settings, summary and the
    validation rows of the history. New parameters will always come with defaults."""
    run = None
    try:
        for _, run in run_training(task, heads, d_model, layers, d_ff, dropout, pe, steps, device,  # noqa: B007
                                   seed):  # fmt: skip
            pass  # the API returns only the finished run
    except (ValueError, TypeError) as err:
        raise gr.Error(str(err)) from None
    evals = run.history[run.history["phase"] == "eval"]
    return {"task": task, "settings": run.settings, "summary": run.summary,
            "eval": evals.drop(columns=["phase"]).to_dict(orient="records")}  # fmt: skip


def _status(run, lang: str) -> str:
    s = run.summary
    if lang == "zh":
        return (f"**完成**：{s['steps']} 步，{s['seconds']} 秒（{s['device']}，结束原因 {s['stopped']}）。"
                f"验证：完全匹配 {s.get('exact_acc', float('nan')):.3f}，词元准确率 "
                f"{s.get('token_acc', float('nan')):.3f}。")  # fmt: skip
    return (f"**Done**: {s['steps']} steps in {s['seconds']} s on {s['device']} (stopped: "
            f"{s['stopped']}). Validation exact match {s.get('exact_acc', float('nan')):.3f}, "
            f"token accuracy {s.get('token_acc', float('nan')):.3f}.")  # fmt: skip


def build() -> None:
    """Lay out the page inside the current gr.Tab and wire its events."""
    gr.Markdown(t("train.intro"))
    with gr.Row():
        task = gr.Radio(["copy", "reverse", "sort", "translate"], value="reverse",
                        label=t("train.task"), elem_id="train-task")  # fmt: skip
        pe = gr.Radio(["sinusoidal", "learned", "none"], value="sinusoidal", label=t("train.pe"))
        device = gr.Dropdown(devices(), value="cpu", label=t("train.device"))
    with gr.Row():
        heads = gr.Number(4, precision=0, label=t("train.heads"))
        d_model = gr.Number(32, precision=0, label=t("train.d_model"))
        layers = gr.Number(1, precision=0, label=t("train.layers"))
        d_ff = gr.Number(64, precision=0, label=t("train.d_ff"))
        dropout = gr.Slider(0.0, 0.5, value=0.0, step=0.05, label=t("train.dropout"))
        steps = gr.Number(600, precision=0, label=t("train.steps"), elem_id="train-steps")
        seed = gr.Number(0, precision=0, label=t("seed"))
    with gr.Row():
        start = gr.Button(t("train.start"), variant="primary", elem_id="train-start")
        stop = gr.Button(t("train.stop"), variant="stop", elem_id="train-stop")
        keep = gr.Button(t("train.compare"), elem_id="train-keep")
        clear = gr.Button(t("train.clear"))
    status = gr.Markdown(elem_id="train-status")
    curves = gr.Plot(label=t("train.curves"), elem_id="train-curves")
    with gr.Row():
        index = gr.Number(0, precision=0, label=t("train.example"))
        kind = gr.Radio(["encoder_self", "decoder_self", "cross"], value="cross",
                        label=t("train.kind"))  # fmt: skip
        show = gr.Button(t("train.show"), elem_id="train-show")
    maps = gr.Plot(label=t("train.maps"), elem_id="train-maps")
    preds = gr.Dataframe(label=t("train.preds"), interactive=False, wrap=True)
    with gr.Row():
        sentence = gr.Textbox("i lost .", label=t("train.sentence"), elem_id="train-sentence")
        translate = gr.Button(t("train.translate"), elem_id="train-translate")
    translation = gr.Markdown(elem_id="train-translation")
    alignment = gr.Plot(label=t("train.alignment"))
    compare = gr.Plot(label=t("train.compare_plot"), elem_id="train-compare")
    run_state, kept = gr.State(None), gr.State({})

    settings = [task, heads, d_model, layers, d_ff, dropout, pe, steps, device, seed]

    def on_train(task, heads, d_model, layers, d_ff, dropout, pe, steps, device, seed,
                 request: gr.Request, progress=gr.Progress()):  # noqa: B008 - Gradio's idiom
        args = (task, heads, d_model, layers, d_ff, dropout, pe, steps, device, seed)
        lang, flag = lang_of(request), threading.Event()
        _STOPS[request.session_hash] = flag
        try:
            run = None
            for fraction, run in run_training(*args, stop=flag):
                progress(fraction, desc="训练中" if lang == "zh" else "training")
                yield training_curves(run.history, lang=lang), gr.skip(), run
            yield training_curves(run.history, lang=lang), _status(run, lang), run
        except (ValueError, TypeError) as err:
            gr.Warning(message(err, lang))
            yield gr.skip(), message(err, lang), gr.skip()
        finally:
            _STOPS.pop(request.session_hash, None)

    def on_stop(request: gr.Request):
        if request.session_hash in _STOPS:
            _STOPS[request.session_hash].set()

    @friendly(3)
    def on_show(run, index, kind, request: gr.Request):
        from app_support.training import attention_for, predictions

        if run is None:
            raise ValueError("train a model first")
        layers_maps, q, k = attention_for(run, int(index), kind)
        return attention_grid(layers_maps, q, k, lang=lang_of(request)), predictions(run), ""

    @friendly(3)
    def on_translate(run, text, request: gr.Request):
        from app_support.training import translate as translate_one

        if run is None:
            raise ValueError("train a model on the 'translate' task first")
        r = translate_one(run, text)
        lines = [f"**{r['translation']}**"]
        if r["reference"] is not None:
            lines.append(f"reference: {r['reference']} · BLEU (D2L, k=2): {r['bleu']:.3f}")
        if r["unknown"]:
            lines.append(f"⚠️ unknown words (read as `<unk>`): {', '.join(r['unknown'])}")
        fig = alignment_heatmap(r["cross"], r["source_tokens"], r["output_tokens"],
                                lang=lang_of(request))  # fmt: skip
        return "\n\n".join(lines), fig, ""

    def after_train(run, index, kind, request: gr.Request):
        if run is None:  # training failed: its message stays in the status line
            return gr.skip(), gr.skip(), gr.skip()
        grid, table, problem = on_show(run, index, kind, request)
        return grid, table, problem or gr.skip()  # keep the "Done" line unless showing failed

    @friendly(3)
    def on_keep(run, kept, request: gr.Request):
        if run is None:
            raise ValueError("train a model first")
        s = run.settings
        name = f"{run.task_name} · pe={s['pe']} · h={s['heads']} · d={s['d_model']} #{len(kept) + 1}"
        kept = {**kept, name: run.history}
        title = " vs ".join(kept)  # one run's legend names metrics, so the title names the runs
        return kept, training_curves(None, compare=kept, title=title, lang=lang_of(request)), ""

    event = start.click(on_train, settings, [curves, status, run_state], concurrency_id="train",
                        api_visibility="private")  # fmt: skip
    event.then(after_train, [run_state, index, kind], [maps, preds, status],
               api_visibility="private")  # fmt: skip
    stop.click(on_stop, None, None, queue=False, api_visibility="private")
    show.click(on_show, [run_state, index, kind], [maps, preds, status], api_visibility="private")
    translate.click(on_translate, [run_state, sentence], [translation, alignment, status],
                    api_visibility="private")  # fmt: skip
    keep.click(on_keep, [run_state, kept], [kept, compare, status], api_visibility="private")
    clear.click(lambda: ({}, None), None, [kept, compare], api_visibility="private")
    gr.api(train, api_name="train", concurrency_id="train")
