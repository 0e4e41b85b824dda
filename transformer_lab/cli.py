"""Command line: `python -m transformer_lab train|bench`, argument parsing over experiments.py and bench.py."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

import torch

from .device import CHOICES as DEVICE_CHOICES
from .experiments import MODEL_FIELDS, MODELS, TASKS, ExperimentConfig, check_settings, run_task
from .positional import PE_KINDS

__all__ = ["build_parser", "main", "settings_for"]


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
    tr.add_argument("--norm-first", action="store_true", default=None,
                    help="pre-LN: x + f(LayerNorm(x)) in every sublayer (default: the paper's "
                         "post-LN Add & Norm)")
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
    tr.add_argument("--threads", type=_positive_int, default=None,
                    help="torch CPU threads (default: the thread policy, 1 on <= 2 cores; "
                         "transformer_lab/threads.py)")
    tr.add_argument("--json", action="store_true", help="end with one JSON line on stdout")
    tr.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    be = sub.add_parser("bench", help="time attention, layers and training (medians)")
    be.add_argument("--quick", action="store_true", help="tiny sizes, a few seconds")
    be.add_argument("--sections", default="attention,complexity,reverse,translate",
                    help="comma-separated: attention, complexity, reverse, translate")
    be.add_argument("--repeats", type=_positive_int)
    be.add_argument("--threads", type=_positive_int, default=None,
                    help="torch CPU threads (default: the thread policy, as train)")
    be.add_argument("--json", action="store_true", help="end with one JSON line on stdout")
    return parser


def settings_for(args: argparse.Namespace) -> ExperimentConfig:
    """The task's preset with every option the user gave on top, as one typed config."""
    given = {key: getattr(args, key) for key in
             (*MODEL_FIELDS, "steps", "batch_size", "lr", "warmup", "label_smoothing")
             if getattr(args, key, None) is not None}
    if args.no_early_stop:
        given["target"] = None
    return ExperimentConfig.from_preset(args.task, **given, seed=args.seed, device=args.device,
                                        model=args.model, corpus=args.corpus)


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


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `python -m transformer_lab`; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "threads", None) is not None or args.command in ("train", "bench"):
        from .threads import default_threads

        torch.set_num_threads(args.threads or default_threads())
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
    bar, callback = _progress(settings.steps, not args.no_progress)
    try:
        result = run_task(args.task, settings, callbacks=[callback])
    finally:
        bar.close()
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    return 0


