"""The Train page's events (gradio): what each click, change and first load does, and the
figures they draw. The page (page.py) lays the components out and wires these to them; handlers
that need the page's session store get it from a factory (``train_handler``, ``stop_handler``,
``keep_handler``), the rest are plain functions of their inputs."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import gradio as gr

from transformer_lab.message import Refused
from webapp.i18n import Term, input_error
from webapp.lab import Lab
from webapp.pages import links
from webapp.pages.common import friendly, lang_of, message, tr, warn
from webapp.pages.sign_in import client_of
from webapp.pages.viewport import head_grid
from webapp.train.api import run_training
from webapp.train.sessions import TrainSessions
from webapp.train.train_config import CHOICES, PAGE_FIELDS, typed
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

ALL_METRICS = ("loss", "token_accuracy", "exact_match")


def options(prefix: str, values: tuple[str, ...]) -> list[tuple]:
    """A radio's choices: (the catalogue's label in the page's language, the value)."""
    from webapp.pages.common import t

    return [(t(f"{prefix}.{v}"), v) for v in values]


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


# --- events ----------------------------------------------------------------------------------

def train_handler(lab: Lab, given: tuple[str, ...]) -> Callable[..., Iterator]:
    """The Train click: ``given`` names the settings in the order the click hands them over;
    ``lab`` the app's parts (its sessions, run cache and training line)."""
    sessions = lab.sessions

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

    return on_train


def stop_handler(sessions: TrainSessions) -> Callable[[gr.Request], None]:
    def on_stop(request: gr.Request):
        sessions.stop(request.session_hash)

    return on_stop


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
    kind_box = gr.update(choices=options("kind", kinds), value=kind)
    return (grid, table, cap, vocab_text, gap_text, slider, problem or gr.skip(), gr.skip(),
            gr.skip(), kind_box)


@friendly(3)
def on_translate(run, text, request: gr.Request):
    from transformer_lab.attention_plot import alignment_heatmap
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


def keep_handler(max_kept_runs: int) -> Callable:
    """Keep the shown run for comparison; a session keeps at most ``max_kept_runs``."""

    @friendly(4)
    def on_keep(run, kept, request: gr.Request):
        from webapp.train.sessions import cap_kept, light_run

        lang = lang_of(request)
        if run is None or not run.summary:
            raise input_error("train_first")
        name = kept_name(run, len(kept) + 1, lang)
        # Kept runs are drawn from their history and summary only; at most a few per session.
        kept = cap_kept({**kept, name: {"history": run.history, "run": light_run(run)}},
                        max_kept_runs)
        # The status keeps its "Done: …" line (it was wiped).
        return (kept, gr.update(value=compare_curves(kept, lang), visible=True),
                gr.update(value=compare_table(kept, lang), visible=True), gr.skip())

    return on_keep


def on_task(task):
    from webapp.train.training import page_preset

    p = page_preset(task)
    return tuple(getattr(p, name) for name in PAGE_FIELDS)


def load_handler(lesson_links: links.LessonLinks) -> Callable:
    """The first load: the untrained model's attention (or a lesson link's setup)."""

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

    return on_load


def on_model(model, kind):
    kinds = kinds_for(model)
    return gr.update(choices=options("kind", kinds), value=kind if kind in kinds else "cross")


def mark_stale(run, request: gr.Request):
    return tr("stale", lang_of(request)) if run is not None else gr.skip()
