"""Train page: build a run from the page's settings, stream it, then inspect the trained model."""

from __future__ import annotations

import math
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
import torch

from transformer_lab.decode import greedy_decode
from transformer_lab.errors import lab_error
from transformer_lab.experiments import ExperimentConfig, build_model, task_parts
from transformer_lab.train import HISTORY_COLUMNS, Trainer
from webapp.i18n import Term, input_error
from webapp.train.train_config import (  # noqa: F401 - the page's choices, re-exported
    KINDS,
    TASKS,
    choices,
    first_view,
    page_config,
    page_preset,
    rechoose,
)

# How often the page's curves are redrawn: drawing 1,500 steps takes ~0.1-0.2 s on the same
# thread as training, so a redraw every 0.5 s cost up to a quarter of a translate run.
STREAM_EVERY_S = 1.0
SNAPSHOTS = 16  # attention snapshots kept per run, evenly spaced in steps
MAX_SENTENCE_CHARS = 200  # a sentence to translate (as a lesson link's sentence field)
PREDICTION_COLUMNS = ["#", "source", "target", "prediction", "ok"]


@dataclass
class Run:
    """One training run: its settings, the trainer and the records streamed back so far."""

    config: ExperimentConfig
    task: Any
    model: torch.nn.Module
    trainer: Trainer
    records: list[dict] = field(default_factory=list)
    summary: dict = field(default_factory=dict)
    # {"step", "maps": {kind: [(h, n, m)] per layer}, "labels": {kind: (queries, keys)}}
    snapshots: list[dict] = field(default_factory=list)
    # A replay of a cached run: model, task, records and snapshots are the one copy every session
    # replaying that run holds (SharedRuns); read it, never train it or apply() messages to it.
    shared: bool = False

    @property
    def task_name(self) -> str:
        return self.config.task

    @property
    def history(self) -> pd.DataFrame:
        return pd.DataFrame(self.records, columns=list(HISTORY_COLUMNS))

    @property
    def model_name(self) -> str:
        return self.config.model


def preview(c: ExperimentConfig) -> tuple[dict, dict]:
    """Attention of held-out example 0 in an untrained model of ``c`` (the page's first view:
    what attention looks like before any learning)."""
    run = new_run(c)
    shot = snapshot(run, 0)
    return shot["maps"], shot["labels"]


def new_run(c: ExperimentConfig, stop: threading.Event | None = None) -> Run:
    """Build task, model and trainer of ``c`` (nothing trained yet), exactly as the CLI does."""
    task, src_vocab, tgt_vocab, objective = task_parts(c.task, c)
    model = build_model(src_vocab, tgt_vocab, c)
    return Run(c, task, model, Trainer(model, objective, c.train_config(decode_final=True), stop))


def snapshot(run: Run, step: int) -> dict:
    """Attention of held-out example 0 at this step (eval mode, then the mode is restored)."""
    was_training = run.model.training
    batch = example_batch(run)
    try:
        maps, labels = all_attention(run, batch.src[:1], batch.src_lens[:1])
    finally:
        run.model.train(was_training)
    return {"step": step, "maps": maps, "labels": labels}


def stream(run: Run) -> Iterator[dict]:
    """Train, yielding {"fraction", "step", "total", "elapsed", "records"} every STREAM_EVERY_S.

    Messages may carry "snapshots" (attention of one held-out example, SNAPSHOTS per run).
    The last message also carries the trained weights (on the CPU) and a summary (for
    translate, scores on held-out sentences). Everything travels in the messages, not in
    shared objects: on ZeroGPU this generator runs in another process, so apply() replays them.
    """
    start = last = time.perf_counter()
    sent = 0
    total = run.trainer.cfg.steps
    every = max(1, total // SNAPSHOTS)
    records, snaps = run.trainer.records, [snapshot(run, 0)]
    for rec in run.trainer.run():
        if rec["phase"] == "train" and rec["step"] % every == 0:
            snaps.append(snapshot(run, rec["step"]))
        now = time.perf_counter()
        if now - last >= STREAM_EVERY_S:
            last = now
            yield {"fraction": rec["step"] / total, "step": rec["step"], "total": total,
                   "elapsed": now - start, "records": records[sent:], "snapshots": snaps}
            sent, snaps = len(records), []
    result = run.trainer.result()
    summary = {"steps": result.steps, "seconds": round(result.train_seconds, 2),
               "stopped": result.stopped, "device": result.device,
               "parameters": run.model.num_parameters(),
               **{k: round(float(v), 4) for k, v in result.final.items()
                  if k in ("loss", "token_acc", "exact_acc")}}
    train_acc = [r["token_acc"] for r in records if r["phase"] == "train"][-20:]
    if train_acc:  # teacher-forced token accuracy of the last training batches
        summary["train_token_acc"] = round(sum(train_acc) / len(train_acc), 4)
    if run.task_name == "translate":
        from transformer_lab.heldout import heldout_report

        summary["heldout"] = heldout_report(run.model, run.task)
        summary["corpus"] = getattr(run.task, "corpus", "bundled")
    if not snaps or snaps[-1]["step"] != result.steps:
        snaps.append(snapshot(run, result.steps))
    state = {k: v.detach().cpu() for k, v in run.model.state_dict().items()}
    yield {"fraction": 1.0, "step": result.steps, "total": total,
           "elapsed": time.perf_counter() - start, "records": records[sent:], "snapshots": snaps,
           "state": state, "summary": summary}


def apply(run: Run, message: dict) -> Run:
    """Replay one message of stream() onto ``run`` (records; at the end weights and summary)."""
    if run.shared:
        raise ValueError("a shared replayed run is read-only")
    run.records.extend(message["records"])
    run.snapshots.extend(message.get("snapshots", []))
    if "state" in message:
        run.model.cpu().load_state_dict(message["state"])
        run.model.eval()
        run.summary = message["summary"]
    return run


# Models rebuilt from cached runs, shared read-only by every session that replays them (issue 29,
# item 7: 40 replays of the largest model held 40 copies, +33 MB each, for the session TTL).
SHARED_MAX_BYTES = 128 * 2**20  # kept here while no session holds them (LRU by bytes)


class SharedRuns:
    """One read-only Run per cached run key, rebuilt once from its cache entry and handed to every
    session that replays it: sessions hold references, never copies.

    Recently used runs are kept (least recently used first out) while they fit ``max_bytes``
    (their tensors: weights, attention snapshots); a run that a session still holds stays
    findable past that (a weak reference), so a key never has two copies in memory at once.
    Thread-safe; concurrent replays of a key not yet built wait for one build."""

    def __init__(self, max_bytes: int = SHARED_MAX_BYTES) -> None:
        self.max_bytes = int(max_bytes)
        self.builds = 0  # runs rebuilt from entries (a test counts copies with it)
        self._lock = threading.Lock()
        self._kept: OrderedDict[str, tuple[Run, int]] = OrderedDict()
        self._bytes = 0
        self._alive: weakref.WeakValueDictionary[str, Run] = weakref.WeakValueDictionary()
        self._building: dict[str, threading.Lock] = {}

    def get(self, key: str, config: ExperimentConfig, entry: Any) -> Run:
        """The shared run of ``key`` (a webapp.services.run_cache.CachedRun of ``config``)."""
        with self._lock:
            found = self._find(key)
            if found is not None:
                return found
            building = self._building.setdefault(key, threading.Lock())
        with building:  # one build per key; the others wait for it and find it
            with self._lock:
                found = self._find(key)
            if found is not None:
                return found
            try:
                run = rebuilt(config, entry)
                size = shared_bytes(run)
                with self._lock:
                    self.builds += 1
                    self._alive[key] = run
                    self._keep(key, run, size)
                return run
            finally:
                with self._lock:
                    self._building.pop(key, None)

    def _find(self, key: str) -> Run | None:
        """A kept or still held run of ``key``, now the most recently used (lock held)."""
        held = self._kept.get(key)
        if held is not None:
            self._kept.move_to_end(key)
            return held[0]
        run = self._alive.get(key)
        if run is not None:
            self._keep(key, run, shared_bytes(run))
        return run

    def _keep(self, key: str, run: Run, size: int) -> None:
        if size > self.max_bytes:
            return  # held only by the sessions replaying it
        self._kept[key] = (run, size)
        self._bytes += size
        while self._bytes > self.max_bytes:
            _, (_, old) = self._kept.popitem(last=False)
            self._bytes -= old

    def stats(self) -> dict:
        with self._lock:
            return {"kept": len(self._kept), "bytes": self._bytes, "alive": len(self._alive),
                    "builds": self.builds, "max_bytes": self.max_bytes}


def rebuilt(config: ExperimentConfig, entry: Any) -> Run:
    """A read-only Run of a cached entry: the model's tensors *are* the entry's (no copy), in eval
    mode without gradients; records and snapshots are the entry's lists."""
    run = new_run(config)
    run.model.cpu()
    run.model.load_state_dict(entry.state, assign=True)  # the entry's tensors, not a copy
    run.model.eval()
    run.model.requires_grad_(False)
    run.records, run.snapshots, run.summary = entry.records, entry.snapshots, dict(entry.summary)
    run.shared = True
    return run


def shared_bytes(run: Run) -> int:
    """The bytes a shared run holds (its weights, snapshots and records)."""
    from webapp.train.sessions import run_bytes

    return run_bytes(run, shared_too=True)


def replay_view(base: Run) -> Run:
    """A replay in progress: ``base``'s model and task, with the records replayed so far (a list of
    references to the shared records)."""
    return Run(base.config, base.task, base.model, base.trainer, shared=True)


def smoothing_floor(vocab_size: int, smoothing: float) -> float:
    """The least label-smoothed cross-entropy any model can reach over ``vocab_size`` classes
    (metrics.label_smoothed_cross_entropy): the entropy of the smoothed target, which puts
    1 − ε + ε/V on the true class and ε/V on each other class."""
    if smoothing <= 0.0:
        return 0.0
    true, other = 1.0 - smoothing + smoothing / vocab_size, smoothing / vocab_size
    return -(true * math.log(true) + (vocab_size - 1) * other * math.log(other))


def loss_gap(run: Run, last: int = 20) -> dict:
    """The two loss lines at the end of a run: "train" (mean of the last ``last`` training
    batches, dropout and label smoothing as configured), "check" (the last evaluation: eval
    mode, no smoothing) and "floor" (smoothing_floor of the target vocabulary)."""
    train = [r["loss"] for r in run.records if r["phase"] == "train"][-last:]
    check = [r["loss"] for r in run.records if r["phase"] == "eval"]
    vocab = run.task.tgt_vocab if run.task_name == "translate" else run.task.vocab
    return {"train": sum(train) / max(len(train), 1), "check": check[-1] if check else math.nan,
            "floor": smoothing_floor(len(vocab), run.config.label_smoothing)}


def example_pairs(run: Run) -> list[tuple[str, str]]:
    """Translate: the held-out pairs whose English words are all in the vocabulary."""
    from transformer_lab.heldout import in_vocab_heldout

    return in_vocab_heldout(run.task)


def example_batch(run: Run, n: int = 32):
    """Held-out examples (toy: the task's held-out stream; translate: in-vocabulary held-out
    sentences, so the maps show real words rather than <unk>)."""
    if run.task_name == "translate":
        return run.task.encode_pairs(example_pairs(run)[:n])
    return run.task.heldout(n)


def _tokens(run: Run, side: str, ids: list[int]) -> list[str]:
    vocab = run.task.vocab if run.task_name != "translate" else (
        run.task.src_vocab if side == "src" else run.task.tgt_vocab)
    return [str(t) for t in vocab.to_tokens(ids)]


def attention_for(run: Run, index: int, kind: str) -> tuple[list[torch.Tensor], list[str], list[str]]:
    """Per-layer (h, n, m) maps of one held-out example, with the query and key token labels.

    The decoder input is the model's own greedy output (with <bos> in front), so the maps show
    what the model attended to while producing its answer.
    """
    if kind not in KINDS:
        raise lab_error("unknown_choice", what="attention kind", value=kind, choices=", ".join(KINDS))
    batch = example_batch(run)
    if not 0 <= index < batch.src.shape[0]:
        raise input_error("example_index", top=batch.src.shape[0] - 1)
    src, lens = batch.src[index : index + 1], batch.src_lens[index : index + 1]  # (1, S), (1,)
    return attention_of_source(run, src, lens, kind)


def all_attention(run: Run, src, lens, max_len: int | None = None) -> tuple[dict, dict]:
    """Every kind of attention the model has for one source (1, S): maps and token labels.
    ``max_len``: the decoding limit (default: the source's length + 2, at least 4); pass the
    one a translation used so the maps show the same output words."""
    s = int(lens[0])
    dev = next(run.model.parameters()).device  # snapshots are taken where the model trains
    src, lens = src[:, :s].to(dev), lens.to(dev)  # drop padding: maps show only real tokens
    run.model.eval()
    out = greedy_decode(run.model, src, lens, max_len=max_len or max(s + 2, 4))
    gen = out.to_lists(strip_eos=False)[0]
    tgt_in = torch.tensor([[1, *gen[:-1]]] if gen else [[1]], device=dev)  # <bos> + output
    with torch.no_grad():
        found = run.model.attention_maps(src, lens, tgt_in)  # kind -> L × (1, h, n, m)
    src_tok = _tokens(run, "src", src[0].cpu().tolist())
    out_tok = _tokens(run, "tgt", gen) if gen else ["<bos>"]
    in_tok = _tokens(run, "tgt", tgt_in[0].cpu().tolist())
    labels = {"encoder_self": (src_tok, src_tok), "decoder_self": (in_tok, in_tok),
              "cross": (out_tok, src_tok)}
    maps = {kind: [m[0].detach().cpu() for m in found[kind]] for kind in KINDS if kind in found}
    return maps, {kind: labels[kind] for kind in maps}


def attention_of_source(run: Run, src, lens, kind: str, max_len: int | None = None):
    """Like attention_for, for any encoded source (1, S) with its length (1,)."""
    maps, labels = all_attention(run, src, lens, max_len)
    if kind not in maps:
        raise input_error("no_attention_choose", model=run.model_name.capitalize(), kind=Term(kind),
                          choices=Term(*maps))
    return maps[kind], *labels[kind]


def predictions(run: Run, n: int = 8) -> pd.DataFrame:
    """Source, target and greedy prediction of the first n held-out examples; "ok" is "✓" or
    "✗", or "unk" for a translate target with a French word outside the model's vocabulary.

    Translate uses the held-out scores' own sentences and rule (transformer_lab.heldout): the
    in-vocabulary held-out pairs, the real French reference (not its <unk>-encoded form), and
    right means the prediction equals the reference exactly."""
    if run.task_name == "translate":
        from transformer_lab.heldout import translate_sentences

        pairs = example_pairs(run)[:n]
        preds = translate_sentences(run.model, run.task, [en for en, _ in pairs])
        vocab = run.task.tgt_vocab
        rows = [(i, en, fr, pred, "✓" if pred == fr else
                 "unk" if any(w not in vocab for w in fr.split()) else "✗")
                for i, ((en, fr), pred) in enumerate(zip(pairs, preds, strict=True))]
        return pd.DataFrame(rows, columns=PREDICTION_COLUMNS)
    batch = example_batch(run)
    n = min(n, batch.src.shape[0])
    out = greedy_decode(run.model, batch.src[:n], batch.src_lens[:n], max_len=batch.tgt_out.shape[1])
    rows = []
    for i in range(n):
        src = run.task.decode_target(batch.src[i])
        target = run.task.decode_target(batch.tgt_out[i])
        pred = run.task.decode_target(out.tokens[i])
        rows.append((i, src, target, pred, "✓" if pred == target else "✗"))
    return pd.DataFrame(rows, columns=PREDICTION_COLUMNS)


def vocabulary(run: Run) -> list[str]:
    """The English words the translate model knows (its source vocabulary, reserved tokens out)."""
    if run.task_name != "translate":
        return []
    return sorted(t for t in run.task.src_vocab.to_tokens(range(len(run.task.src_vocab)))
                  if not t.startswith("<"))


def translate(run: Run, sentence: str) -> dict:
    """Greedy translation of one sentence, its cross-attention and a BLEU score when the corpus
    has the sentence (a reference is needed); unknown words are listed, not fatal."""
    from transformer_lab.bleu import d2l_bleu
    from transformer_lab.tasks.translation import normalise

    if run.task_name != "translate":
        raise input_error("translate_needs_task")
    if not isinstance(sentence, str) or not sentence.strip():
        raise input_error("translate_sentence_empty")
    if len(sentence) > MAX_SENTENCE_CHARS:  # a pasted page was translated and echoed whole
        raise input_error("translate_sentence_long", got=len(sentence), most=MAX_SENTENCE_CHARS)
    src, lens = run.task.encode_source(sentence)
    limit = run.task.cfg.num_steps  # one limit: the alignment shows the translation's words
    maps, out_tok, src_tok = attention_of_source(run, src, lens, "cross", max_len=limit)
    dev = next(run.model.parameters()).device
    pred = run.task.decode_target(greedy_decode(run.model, src[:, : int(lens[0])].to(dev),
                                                lens.to(dev), max_len=limit).tokens[0])
    key = normalise(sentence)
    refs = {en: fr for en, fr in [*run.task.train, *run.task.heldout]}
    ref = refs.get(key)
    bleu = None
    if ref is not None:
        try:
            bleu = float(d2l_bleu(pred, ref))
        except (ValueError, ZeroDivisionError):
            bleu = 0.0
    seen = "train" if key in {en for en, _ in run.task.train} else \
        "heldout" if ref is not None else "new"
    return {"translation": pred, "reference": ref, "bleu": bleu, "cross": maps[-1],
            "source_tokens": src_tok, "output_tokens": out_tok, "seen": seen,
            "unknown": run.task.unknown_words(sentence), "read_as": key,
            "normalised": key != " ".join(sentence.split())}
