"""Command line: `python -m transformer_lab train|bench`, a thin layer over train.py and bench.py."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence

import torch

from .device import CHOICES as DEVICE_CHOICES
from .positional import PE_KINDS

TASKS = ("copy", "reverse", "sort", "translate", "kernel")
TEST_SIZE = 1000  # held-out toy sequences scored by greedy decoding

# Per-task defaults: the settings measured to reach the numbers on 2 CPU cores
# (1 layer trains reversal in ~300 steps where 2 layers need ~3x the time). Toy tasks stop early once a greedy check on a *validation* stream (not
# the reported test set) reaches `target`; `steps` is then only a ceiling.
TOY = dict(d_model=32, heads=4, layers=1, d_ff=64, dropout=0.0, pe="sinusoidal", steps=2000,
           batch_size=128, lr=3e-3, warmup=100, schedule="noam", label_smoothing=0.0,
           eval_every=25, target=0.998, val_size=1024)
PRESETS: dict[str, dict] = {
    "copy": dict(TOY),
    "reverse": dict(TOY),
    "sort": dict(TOY),
    # Translation trains a fixed budget; the cosine decay to 0 settles the last steps, so
    # rare pairs such as "go . -> va !" are not knocked loose by a late noisy update. Dropout
    # and label smoothing make it generalise to held-out sentences: on 2 cores (one torch
    # thread, a shared machine) this preset trained in ~60 s to held-out sacreBLEU 89 and
    # exact match 0.80 (0.84 on held-out sentences whose words are all in the vocabulary).
    "translate": dict(d_model=64, heads=4, layers=1, d_ff=128, dropout=0.1, pe="sinusoidal",
                      steps=1500, batch_size=64, lr=5e-3, warmup=100, schedule="cosine",
                      label_smoothing=0.1, eval_every=250, target=None, val_size=256),
    "kernel": dict(steps=200, batch_size=1, lr=0.1, warmup=0, schedule="constant",
                   label_smoothing=0.0, eval_every=50, target=None),
}
MODEL_FIELDS = ("d_model", "heads", "layers", "d_ff", "dropout", "pe")
# "bahdanau": the lessons' GRU seq2seq with additive attention (seq2seq.py), on the same tasks;
# it reads d_model as its embedding and hidden width, layers as its GRU depth and dropout.
MODELS = ("transformer", "bahdanau")

__all__ = ["MODELS", "PRESETS", "TASKS", "build_model", "build_parser", "main", "run_task", "settings_for",
           "task_parts", "train_config"]


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not 0.0 <= value < 1.0:
        raise argparse.ArgumentTypeError(f"must lie in [0, 1), got {value}")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The `train` and `bench` sub-commands with their options."""
    # argparse reports bad options as "usage ... error: reason" with exit status 2.
    parser = argparse.ArgumentParser(prog="python -m transformer_lab",
                                     description="Train and benchmark the Transformer Lab models.")
    sub = parser.add_subparsers(dest="command", required=True)
    tr = sub.add_parser("train", help="train one model on one task and score it")
    tr.add_argument("--task", required=True, choices=TASKS)
    tr.add_argument("--corpus", choices=("bundled", "tatoeba"), default="bundled",
                    help="translate: the bundled pairs, or D2L's Tatoeba fra-eng (downloaded once, "
                    "checksum verified, cached; falls back to bundled without network)")
    tr.add_argument("--model", choices=MODELS, default="transformer",
                    help="transformer (default) or bahdanau (GRU + additive attention)")
    tr.add_argument("--heads", type=_positive_int)
    tr.add_argument("--d-model", type=_positive_int)
    tr.add_argument("--layers", type=_positive_int)
    tr.add_argument("--d-ff", type=_positive_int)
    tr.add_argument("--dropout", type=_fraction)
    tr.add_argument("--pe", choices=PE_KINDS)
    tr.add_argument("--steps", type=_positive_int, help="most training steps")
    tr.add_argument("--batch-size", type=_positive_int)
    tr.add_argument("--lr", type=_positive_float, help="peak learning rate")
    tr.add_argument("--warmup", type=int)
    tr.add_argument("--label-smoothing", type=_fraction)
    tr.add_argument("--no-early-stop", action="store_true",
                    help="always train for --steps (no stop at the validation target)")
    tr.add_argument("--seed", type=int, default=0)
    tr.add_argument("--device", choices=DEVICE_CHOICES, default="auto")
    # One thread by default: these models are small enough that a second thread gains little
    # on a quiet 2-core machine, and under load two spinning OpenMP threads made runs 3-5x
    # slower (reverse: 74 s vs 11-23 s for one thread, measured here).
    tr.add_argument("--threads", type=_positive_int, default=1,
                    help="torch CPU threads (default 1)")
    tr.add_argument("--json", action="store_true", help="end with one JSON line on stdout")
    tr.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    be = sub.add_parser("bench", help="time attention, layers and training (medians)")
    be.add_argument("--quick", action="store_true", help="tiny sizes, a few seconds")
    be.add_argument("--sections", default="attention,complexity,reverse,translate",
                    help="comma-separated: attention, complexity, reverse, translate")
    be.add_argument("--repeats", type=_positive_int)
    be.add_argument("--threads", type=_positive_int, default=2)
    be.add_argument("--json", action="store_true", help="end with one JSON line on stdout")
    return parser


def settings_for(args: argparse.Namespace) -> dict:
    """The task's preset with every option the user gave on top."""
    settings = dict(PRESETS[args.task])
    for key in (*MODEL_FIELDS, "steps", "batch_size", "lr", "warmup", "label_smoothing"):
        value = getattr(args, key, None)
        if value is not None:
            settings[key] = value
    if args.no_early_stop:
        settings["target"] = None
    settings.update(seed=args.seed, device=args.device, model=args.model, corpus=args.corpus)
    return settings


def _progress(total: int, enabled: bool):
    """A tqdm bar on stderr and the callback that advances it."""
    from tqdm import tqdm

    # A log file (not a terminal) gets a line per second rather than ten.
    interval = 0.1 if sys.stderr.isatty() else 1.0
    bar = tqdm(total=total, desc="train", unit="step", file=sys.stderr, disable=not enabled,
               dynamic_ncols=True, mininterval=interval)

    def callback(rec: dict) -> None:
        if rec["phase"] == "train":
            bar.update(1)
            if rec["step"] % 10 == 0:
                bar.set_postfix(loss=f"{rec['loss']:.3f}", refresh=False)
        else:
            shown = {"val_loss": f"{rec['loss']:.3f}"}
            if rec["exact_acc"] == rec["exact_acc"]:  # not nan
                shown["val_exact"] = f"{rec['exact_acc']:.3f}"
            bar.set_postfix(shown, refresh=False)

    return bar, callback


def _toy_parts(kind: str, s: dict):
    from .objectives import Seq2SeqObjective, validation_seed
    from .tasks.toy import ToyTask, ToyTaskConfig

    sizes = {k: s[k] for k in ("min_len", "max_len", "vocab_size") if k in s}  # bench --quick
    task = ToyTask(ToyTaskConfig(kind=kind, seed=s["seed"], **sizes))
    val = task.sample(s["val_size"], torch.Generator().manual_seed(validation_seed(s["seed"])))
    return task, len(task.vocab), len(task.vocab), Seq2SeqObjective(task, val)


def _translate_parts(s: dict):
    from .objectives import Seq2SeqObjective, validation_seed
    from .tasks.tatoeba import corpus_pairs
    from .tasks.translation import TranslationConfig, TranslationTask

    pairs, used = corpus_pairs(s.get("corpus", "bundled"))
    task = TranslationTask(TranslationConfig(seed=s["seed"]), pairs=pairs)
    task.corpus = used  # "bundled", "tatoeba", or the fallback with its reason
    # Validation = training pairs (the held-out split is the reported test set).
    val = task.sample(s["val_size"], torch.Generator().manual_seed(validation_seed(s["seed"])))
    return task, len(task.src_vocab), len(task.tgt_vocab), Seq2SeqObjective(task, val)


def task_parts(task_name: str, s: dict):
    """(task, source vocab size, target vocab size, objective) for a seq2seq task's settings."""
    return _translate_parts(s) if task_name == "translate" else _toy_parts(task_name, s)


def build_model(src_vocab: int, tgt_vocab: int, s: dict) -> torch.nn.Module:
    """The model of the settings ``s`` (s["model"], Transformer by default), seeded by s["seed"]."""
    from .seq2seq import BahdanauSeq2Seq, Seq2SeqConfig
    from .transformer import Transformer, TransformerConfig

    torch.manual_seed(s["seed"])
    if s.get("model", "transformer") == "bahdanau":
        return BahdanauSeq2Seq(Seq2SeqConfig(src_vocab, tgt_vocab, embed_size=s["d_model"],
                                             num_hiddens=s["d_model"], num_layers=s["layers"],
                                             dropout=s["dropout"]))  # fmt: skip
    return Transformer(TransformerConfig(src_vocab, tgt_vocab, **{k: s[k] for k in MODEL_FIELDS}))


def score_toy(model: torch.nn.Module, task) -> dict:
    """Greedy exact match and token accuracy on the task's 1,000 held-out sequences."""
    from .decode import greedy_decode
    from .metrics import decoded_scores

    test = task.heldout(TEST_SIZE)
    out = greedy_decode(model, test.src, test.src_lens, max_len=test.tgt_out.shape[1])
    scores = decoded_scores(out.tokens.cpu(), test.tgt_out)
    return {"exact_match": scores["exact_acc"], "token_accuracy": scores["token_acc"]}


def translate(model: torch.nn.Module, task, sentences: Sequence[str]) -> list[str]:
    """Greedy translations of English sentences, as preprocessed French text."""
    from .heldout import translate_sentences

    return translate_sentences(model, task, list(sentences))


def score_translate(model: torch.nn.Module, task) -> dict:
    """Held-out scores (sentences never trained on) and D2L BLEU on D2L's four sentences.

    "heldout" holds sacrebleu BLEU, D2L BLEU and exact match on all held-out sentences and on
    those whose words are all in the vocabulary, plus the vocabulary's share of held-out words
    (see heldout.heldout_report). D2L's four sentences are training pairs: a sanity check only.
    """
    from .bleu import d2l_bleu
    from .heldout import heldout_report
    from .tasks.translation import D2L_EXAMPLES

    report = heldout_report(model, task)
    examples = translate(model, task, [en for en, _ in D2L_EXAMPLES])
    per = [d2l_bleu(p, fr) for p, (_, fr) in zip(examples, D2L_EXAMPLES, strict=True)]
    return {"corpus": getattr(task, "corpus", "bundled"), "bleu_heldout": report["all"]["bleu"],
            "bleu_examples": sum(per) / len(per),
            "heldout": report,
            "examples": [{"en": en, "pred": p, "ref": fr}
                         for p, (en, fr) in zip(examples, D2L_EXAMPLES, strict=True)]}


def train_config(s: dict, decode_final: bool = False):
    """The TrainConfig of settings ``s`` (decode_final: score the last check by greedy decoding)."""
    from .train import TrainConfig

    keys = ("steps", "batch_size", "lr", "warmup", "schedule", "label_smoothing", "eval_every",
            "target", "seed", "device")
    return TrainConfig(**{k: s[k] for k in keys}, decode_final=decode_final)


def check_settings(task_name: str, s: dict) -> None:
    """Raise ValueError with a learner-readable reason if ``s`` cannot be trained."""
    from .device import pick_device
    from .transformer import TransformerConfig

    train_config(s).validate()
    pick_device(s["device"])
    model = s.get("model", "transformer")
    if model not in MODELS:
        raise ValueError(f"unknown model {model!r}; choose one of {', '.join(MODELS)}")
    if model == "bahdanau" and task_name != "kernel":
        from .seq2seq import Seq2SeqConfig

        Seq2SeqConfig(16, 16, s["d_model"], s["d_model"], s["layers"], s["dropout"]).validate()
    elif task_name != "kernel":  # vocabulary sizes do not matter for these checks
        TransformerConfig(16, 16, **{k: s[k] for k in MODEL_FIELDS}).validate()


def run_task(task_name: str, s: dict, progress: bool = False,
             model_builder: Callable[[int, int, dict], torch.nn.Module] | None = None) -> dict:
    """Train the model of ``task_name`` under settings ``s`` and score it (CLI JSON fields).

    ``model_builder(src_vocab, tgt_vocab, s)`` swaps in another seq2seq model (the bench
    trains torch.nn.Transformer this way); the default is our Transformer.
    """
    from .train import train

    if task_name not in TASKS:
        raise ValueError(f"unknown task {task_name!r}; choose one of {', '.join(TASKS)}")
    if task_name == "kernel":
        from .kernel import NWKernelRegression
        from .objectives import KernelObjective

        torch.manual_seed(s["seed"])
        model, objective = NWKernelRegression(w_init=1.0), KernelObjective(seed=s["seed"])
    else:
        task, v_src, v_tgt, objective = task_parts(task_name, s)
        model = (model_builder or build_model)(v_src, v_tgt, s)
    cfg = train_config(s)
    bar, callback = _progress(cfg.steps, progress)
    try:
        result = train(model, objective, cfg, callbacks=[callback])
    finally:
        bar.close()
    out = {"task": task_name, "steps": result.steps, "train_seconds": round(result.train_seconds, 3),
           "device": result.device, "stopped": result.stopped, "seed": s["seed"],
           "threads": torch.get_num_threads()}
    if task_name == "kernel":
        out.update(mse_test=result.final["loss"], w=float(model.w.detach()))
    else:
        out.update({k: s[k] for k in MODEL_FIELDS}, model=s.get("model", "transformer"),
                   parameters=model.num_parameters())
        out.update(score_translate(model, task) if task_name == "translate"
                   else score_toy(model, task))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `python -m transformer_lab`; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)
    if args.command == "bench":
        from .bench import run_bench

        try:
            report = run_bench(quick=args.quick, sections=args.sections.split(","),
                               repeats=args.repeats, out=sys.stdout)
        except ValueError as err:
            parser.error(str(err))
        if args.json:
            print(json.dumps(report))
        return 0
    settings = settings_for(args)
    try:
        check_settings(args.task, settings)
    except ValueError as err:
        parser.error(str(err))
    result = run_task(args.task, settings, progress=not args.no_progress)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    return 0


