"""Train page: build a run from the page's settings, stream it, then inspect the trained model."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
import torch

from transformer_lab.cli import PRESETS, build_model, check_settings, task_parts, train_config
from transformer_lab.decode import greedy_decode
from transformer_lab.train import HISTORY_COLUMNS, Trainer
from transformer_lab.transformer import Transformer

TASKS = ("copy", "reverse", "sort", "translate")
KINDS = ("encoder_self", "decoder_self", "cross")
# Ceilings that keep one run inside a ZeroGPU call and a few minutes on 2 vCPUs.
LIMITS = {"heads": (1, 8), "d_model": (2, 256), "layers": (1, 4), "d_ff": (1, 1024),
          "steps": (1, 5000)}  # fmt: skip
STREAM_EVERY_S = 0.5  # how often the page's curves are redrawn


@dataclass
class Run:
    """One training run: its settings, the trainer and the records streamed back so far."""

    task_name: str
    settings: dict
    task: Any
    model: Transformer
    trainer: Trainer
    records: list[dict] = field(default_factory=list)
    summary: dict = field(default_factory=dict)

    @property
    def history(self) -> pd.DataFrame:
        return pd.DataFrame(self.records, columns=list(HISTORY_COLUMNS))


def settings(task: str = "reverse", heads: int = 4, d_model: int = 32, layers: int = 1,
             d_ff: int = 64, dropout: float = 0.0, pe: str = "sinusoidal", steps: int = 300,
             device: str = "cpu", seed: int = 0) -> dict:  # fmt: skip
    """The CLI preset of ``task`` with the page's choices on top, checked (ValueError if bad)."""
    if task not in TASKS:
        raise ValueError(f"unknown task {task!r}; choose one of {', '.join(TASKS)}")
    s = dict(PRESETS[task])
    s.update(heads=heads, d_model=d_model, layers=layers, d_ff=d_ff, dropout=float(dropout), pe=pe,
             steps=steps, device=device, seed=seed)  # fmt: skip
    for name, (low, high) in LIMITS.items():
        value = s[name]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(f"{name} must be a whole number from {low} to {high}, got {value!r}")
    s["eval_every"] = max(1, min(s["eval_every"], steps // 4 or 1))  # a few points on short runs
    s["val_size"] = min(s["val_size"], 256)  # validation stays a fraction of a second per check
    check_settings(task, s)
    return s


def new_run(task_name: str, s: dict, stop: threading.Event | None = None) -> Run:
    """Build task, model and trainer (nothing trained yet), exactly as the CLI does."""
    task, src_vocab, tgt_vocab, objective = task_parts(task_name, s)
    model = build_model(src_vocab, tgt_vocab, s)
    cfg = train_config(s, decode_final=True)
    return Run(task_name, s, task, model, Trainer(model, objective, cfg, stop))


def stream(run: Run) -> Iterator[dict]:
    """Train, yielding {"fraction", "records"} about every STREAM_EVERY_S seconds.

    The last message also carries the trained weights (on the CPU) and a summary. Everything
    the caller needs travels in the messages, not in shared objects: on ZeroGPU this generator
    runs in another process, so apply() replays them onto the caller's Run.
    """
    last, sent = time.perf_counter(), 0
    total = run.trainer.cfg.steps
    records = run.trainer.records
    for rec in run.trainer.run():
        now = time.perf_counter()
        if now - last >= STREAM_EVERY_S:
            last = now
            yield {"fraction": rec["step"] / total, "records": records[sent:]}
            sent = len(records)
    result = run.trainer.result()
    summary = {"steps": result.steps, "seconds": round(result.train_seconds, 2),
               "stopped": result.stopped, "device": result.device,
               **{k: round(float(v), 4) for k, v in result.final.items()
                  if k in ("loss", "token_acc", "exact_acc")}}  # fmt: skip
    state = {k: v.detach().cpu() for k, v in run.model.state_dict().items()}
    yield {"fraction": 1.0, "records": records[sent:], "state": state, "summary": summary}


def apply(run: Run, message: dict) -> Run:
    """Replay one message of stream() onto ``run`` (records; at the end weights and summary)."""
    run.records.extend(message["records"])
    if "state" in message:
        run.model.cpu().load_state_dict(message["state"])
        run.model.eval()
        run.summary = message["summary"]
    return run


def example_batch(run: Run, n: int = 32):
    """A few held-out examples (toy: the task's held-out stream; translate: held-out pairs)."""
    batch = run.task.heldout_batch() if run.task_name == "translate" else run.task.heldout(n)
    return batch


def _tokens(run: Run, side: str, ids: list[int]) -> list[str]:
    vocab = run.task.vocab if run.task_name != "translate" else (
        run.task.src_vocab if side == "src" else run.task.tgt_vocab)  # fmt: skip
    return [str(t) for t in vocab.to_tokens(ids)]


def attention_for(run: Run, index: int, kind: str) -> tuple[list[torch.Tensor], list[str], list[str]]:
    """Per-layer (h, n, m) maps of one held-out example, with the query and key token labels.

    The decoder input is the model's own greedy output (with <bos> in front), so the maps show
    what the model attended to while producing its answer.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown attention kind {kind!r}; choose one of {', '.join(KINDS)}")
    batch = example_batch(run)
    if not 0 <= index < batch.src.shape[0]:
        raise ValueError(f"the example index must lie between 0 and {batch.src.shape[0] - 1}")
    src, lens = batch.src[index : index + 1], batch.src_lens[index : index + 1]  # (1, S), (1,)
    return attention_of_source(run, src, lens, kind)


def attention_of_source(run: Run, src, lens, kind: str):
    """Like attention_for, for any encoded source (1, S) with its length (1,)."""
    s = int(lens[0])
    src = src[:, :s]  # drop padding: the maps then show only real tokens
    out = greedy_decode(run.model, src, lens, max_len=max(s + 2, 4))
    gen = out.to_lists(strip_eos=False)[0]
    tgt_in = torch.tensor([[1, *gen[:-1]]]) if gen else torch.tensor([[1]])  # <bos> + output
    with torch.no_grad():
        maps = run.model.attention_maps(src, lens, tgt_in)[kind]  # L × (1, h, n, m)
    src_tok = _tokens(run, "src", src[0].tolist())
    out_tok = _tokens(run, "tgt", gen) if gen else ["<bos>"]
    in_tok = _tokens(run, "tgt", tgt_in[0].tolist())
    queries = {"encoder_self": src_tok, "decoder_self": in_tok, "cross": out_tok}[kind]
    keys = {"encoder_self": src_tok, "decoder_self": in_tok, "cross": src_tok}[kind]
    return [m[0] for m in maps], queries, keys


def predictions(run: Run, n: int = 8) -> pd.DataFrame:
    """Source, target and greedy prediction of the first n held-out examples."""
    batch = example_batch(run)
    n = min(n, batch.src.shape[0])
    out = greedy_decode(run.model, batch.src[:n], batch.src_lens[:n], max_len=batch.tgt_out.shape[1])
    rows = []
    for i in range(n):
        src = run.task.decode_target(batch.src[i]) if run.task_name != "translate" else \
            " ".join(_tokens(run, "src", batch.src[i, : int(batch.src_lens[i]) - 1].tolist()))
        target = run.task.decode_target(batch.tgt_out[i])
        pred = run.task.decode_target(out.tokens[i])
        rows.append((i, src, target, pred, "✅" if pred == target else "❌"))
    return pd.DataFrame(rows, columns=["#", "source", "target", "prediction", "ok"])


def translate(run: Run, sentence: str) -> dict:
    """Greedy translation of one sentence, its cross-attention and a BLEU score when the corpus
    has the sentence (a reference is needed); unknown words are listed, not fatal."""
    from transformer_lab.bleu import d2l_bleu
    from transformer_lab.tasks.translation import preprocess

    if run.task_name != "translate":
        raise ValueError("translation needs a model trained on the 'translate' task")
    if not isinstance(sentence, str) or not sentence.strip():
        raise ValueError("the sentence is empty: type an English sentence to translate")
    src, lens = run.task.encode_source(sentence)
    maps, out_tok, src_tok = attention_of_source(run, src, lens, "cross")
    pred = run.task.decode_target(greedy_decode(run.model, src[:, : int(lens[0])], lens,
                                                max_len=run.task.cfg.num_steps).tokens[0])  # fmt: skip
    key = preprocess(sentence)
    refs = {en: fr for en, fr in [*run.task.train, *run.task.heldout]}
    ref = refs.get(key)
    bleu = None
    if ref is not None:
        try:
            bleu = float(d2l_bleu(pred, ref))
        except (ValueError, ZeroDivisionError):
            bleu = 0.0
    return {"translation": pred, "reference": ref, "bleu": bleu, "cross": maps[-1],
            "source_tokens": src_tok, "output_tokens": out_tok,
            "unknown": run.task.unknown_words(sentence)}  # fmt: skip
