"""Train page text: statuses, captions of the teaching moments, localised tables (no gradio)."""

from __future__ import annotations

import pandas as pd

from webapp.i18n import tr

PRED_COLUMNS = {"source": "cols.source", "target": "cols.target", "prediction": "cols.prediction",
                "ok": "cols.ok"}
ALL_KINDS = ("encoder_self", "decoder_self", "cross")  # training.KINDS, without loading torch


def kinds_for(model: str) -> tuple[str, ...]:
    """The attention kinds a model has: Bahdanau's GRU seq2seq has cross-attention only."""
    return ALL_KINDS if model == "transformer" else ("cross",)


def empty_predictions(lang: str) -> pd.DataFrame:
    """The predictions table before a run has filled it: its real headers, no rows."""
    return localise_predictions(pd.DataFrame(columns=["#", *PRED_COLUMNS]), lang)


def _model_label(run, lang: str) -> str:
    return tr(f"model.{run.model_name}", lang)


def done_status(run, lang: str) -> str:
    """The finished run in one line: steps, time, why it stopped, and its unseen-data score."""
    s = run.summary
    fields = dict(steps=s["steps"], seconds=s["seconds"], device=s["device"],
                  reason=tr(f"reason.{s['stopped']}", lang), model=_model_label(run, lang),
                  params=s.get("parameters", 0))
    if run.task_name == "translate":
        corpus = s.get("corpus", "bundled")
        name = tr("corpus.tatoeba", lang) if corpus == "tatoeba" else tr("corpus.bundled", lang)
        if corpus.startswith("bundled ("):
            name += " · " + tr("corpus.fallback", lang)
        return tr("status.done_translate", lang, **fields) + tr("corpus.line", lang, name=name)
    nan = float("nan")
    return tr("status.done", lang, exact=s.get("exact_acc", nan), tok=s.get("token_acc", nan),
              **fields)


def translation_text(run, lang: str, table: pd.DataFrame | None = None) -> str:
    """Held-out BLEU (sacrebleu and D2L), exact match and vocabulary coverage of a translate run;
    with the predictions ``table`` (training.predictions), a sentence that ties its rows to
    those figures: which sentences they are, how many are right, how many cannot be."""
    h = run.summary.get("heldout")
    if not h:
        return ""
    a, k = h["all"], h["in_vocab"]
    text = tr("cap.translate_honest", lang, n=a["n"], bleu=a["bleu"], d2l=a["bleu_d2l"],
              exact=a["exact_match"], n_known=k["n"], kbleu=k["bleu"], kexact=k["exact_match"],
              share=h["vocab_share"])
    if table is None or not len(table):
        return text
    ok = table["ok"]
    return text + "\n\n" + tr("cap.table_rows", lang, shown=len(table), n_known=k["n"],
                               right=int((ok == "✓").sum()), kexact=k["exact_match"],
                               unk=int((ok == "unk").sum()))


def regularised(config) -> str:
    """Which of dropout and label smoothing the run's training loss is measured with:
    "both", "dropout", "smoothing" or "none" (the evaluation always runs without either)."""
    dropout, smoothing = config.dropout > 0, config.label_smoothing > 0
    return ("both" if dropout and smoothing else "dropout" if dropout
            else "smoothing" if smoothing else "none")


def loss_names(config, lang: str) -> dict[str, str]:
    """Legend names of the loss lines (history columns "loss" and "eval_loss"): what each is
    measured on and how. Translate checks on training pairs (its held-out sentences are the
    test set), the toy tasks on a separate validation stream."""
    data = "translate" if config.task == "translate" else "toy"
    return {"loss": tr(f"curve.train.{regularised(config)}", lang),
            "eval_loss": tr(f"curve.check.{data}", lang, n=config.val_size)}


def check_name(config, lang: str) -> str:
    """The dashed loss line's short name beside a kept run's name (comparison legends)."""
    data = "translate" if config.task == "translate" else "toy"
    return tr(f"curve.check_short.{data}", lang)


GAP_CLOSE = 0.01  # accuracies this close agree: the model's own guesses derail nothing


def accuracy_gap_text(train: float, decoded: float, lang: str) -> str:
    """Why the teacher-forced and the free-running token accuracies differ, in words that fit
    the numbers: when they agree, no early mistake derailed anything (the old text said it did,
    beside 0.999 and 1.000)."""
    key = "cap.gap_close" if decoded >= train - GAP_CLOSE else "cap.gap"
    return tr(key, lang, train=train, decoded=decoded)


def loss_gap_text(run, lang: str) -> str:
    """Why the dashed loss line lies below the solid one, with the run's figures; "" when the
    training loss is measured like the check (no dropout, no label smoothing) or is not higher."""
    from webapp.train.training import loss_gap

    on, gap = regularised(run.config), loss_gap(run)
    if on == "none" or not gap["check"] < gap["train"]:
        return ""
    return tr(f"cap.loss_gap.{on}", lang, **gap)


def snapshot_caption(run, index: int, lang: str) -> str:
    """The training step of snapshot ``index`` (the slider counts snapshots, not steps)."""
    last = len(run.snapshots) - 1
    index = min(max(int(index), 0), last)
    key = "cap.snap_final" if index == last else "cap.snap_at"
    return tr(key, lang, step=run.snapshots[index]["step"], total=run.summary.get("steps", "?"),
              index=index, last=last)


def caption(run, kind: str, lang: str) -> str:
    """What to notice in this run's attention maps, tied to the lesson."""
    if run.config.pe == "none" and run.model_name == "transformer":
        return tr("cap.nope", lang)
    text = tr(f"cap.{run.task_name}", lang) if kind == "cross" else ""
    if run.model_name == "bahdanau":
        text += "\n\n" + tr("cap.bahdanau", lang)
    return text.strip()


def localise_predictions(df: pd.DataFrame, lang: str) -> pd.DataFrame:
    """Column headers and right/wrong marks of the predictions table in the page's language."""
    marks = {"✓": tr("pred.right", lang), "✗": tr("pred.wrong", lang),
             "unk": tr("pred.unreachable", lang)}
    return df.assign(ok=df["ok"].map(lambda v: marks.get(v, v))).rename(
        columns={c: tr(k, lang) for c, k in PRED_COLUMNS.items()})


def kept_name(run, number: int, lang: str) -> str:
    """A kept run's legend name in ``lang``: task, model and the settings that tell runs apart
    (layers too), and whether it was stopped early and where (issue 20)."""
    c = run.config
    task = tr(f"task.{run.task_name}", lang)
    s = getattr(run, "summary", {}) or {}
    end = ""
    if s.get("stopped") in ("stop_flag", "diverged"):
        end = " · " + tr(f"kept.{s['stopped']}", lang, step=s.get("steps", 0))
    if run.model_name == "bahdanau":
        return f"{task} · Bahdanau · d={c.d_model} · L={c.layers}{end} #{number}"
    return (f"{task} · pe={tr(f'pe.{c.pe}', lang)} · h={c.heads} · d={c.d_model} · L={c.layers}"
            f"{end} #{number}")


def _score(run, lang: str) -> str:
    s = run.summary
    exact, token = tr("kept.exact", lang), tr("kept.token", lang)
    if run.task_name == "translate" and s.get("heldout"):
        h = s["heldout"]["all"]
        return f"BLEU {h['bleu']:.1f} · {exact} {h['exact_match']:.3f}"
    return f"{exact} {s.get('exact_acc', float('nan')):.3f} · {token} {s.get('token_acc', float('nan')):.3f}"


def compare_table(kept: dict, lang: str) -> pd.DataFrame:
    """One row per kept run: model, parameters, steps, seconds and its score on unseen data."""
    rows = []
    for name, item in kept.items():
        run = item["run"]
        s = run.summary
        rows.append((name, _model_label(run, lang), s.get("parameters"), s["steps"], s["seconds"],
                     _score(run, lang)))
    cols = [tr(k, lang) for k in ("cols.run", "cols.model", "cols.params", "cols.steps",
                                  "cols.seconds", "cols.score")]
    return pd.DataFrame(rows, columns=cols)
