"""Measured figures: our attention vs torch's, layer cost as n and d grow, time to 99% on reverse."""

from __future__ import annotations

import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import TextIO

import torch
from torch import Tensor, nn

from .errors import lab_error
from .experiments import ExperimentConfig, run_task
from .multihead import MultiHeadAttention
from .positional import sinusoidal_table
from .transformer import TransformerConfig

__all__ = ["SECTIONS", "TorchTransformer", "bench_attention", "bench_complexity",
           "bench_reverse", "bench_translate", "interleaved_medians", "run_bench"]

SECTIONS = ("attention", "complexity", "reverse", "translate")


def interleaved_medians(fns: dict, repeats: int) -> dict:
    """Median seconds of each function, timed in turns (a, b, a, b, ...) after one warm-up.

    Taking turns spreads any background load over all contenders alike, so the ratios
    stay meaningful on a shared machine even when the absolute times wander.
    """
    times: dict = {name: [] for name in fns}
    for fn in fns.values():
        fn()  # warm-up: first calls pay for allocation and kernel selection
    for _ in range(repeats):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(t) for name, t in times.items()}


def _print_table(out: TextIO, title: str, header: Sequence[str], rows: list[Sequence]) -> None:
    def fmt(x):
        return f"{x:.3g}" if isinstance(x, float) else str(x)

    cells = [list(map(str, header))] + [[fmt(x) for x in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    print(f"\n## {title}", file=out)
    for i, row in enumerate(cells):
        print("  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)), file=out)
        if i == 0:
            print("  ".join("-" * w for w in widths), file=out)


# ---------------------------------------------------------------- multi-head attention


def _mha_call(module: nn.Module, x: Tensor, pad: Tensor | None, need_weights: bool,
              backward: bool, torch_style: bool) -> Callable[[], object]:
    """One forward (under no_grad) or forward + backward of self-attention on x.

    ``pad`` (B, n) is True at padded keys (torch's key_padding_mask); ours gets its
    complement as a (B, 1, 1, n) keep mask.
    """
    if torch_style:  # per-head weights, like ours
        kw = {"average_attn_weights": False, "key_padding_mask": pad}
    else:
        kw = {"mask": None if pad is None else ~pad[:, None, None, :]}
    if not backward:
        def forward_only():
            with torch.no_grad():
                return module(x, x, x, need_weights=need_weights, **kw)
        return forward_only
    xg = x.clone().requires_grad_(True)

    def forward_backward():
        module(xg, xg, xg, need_weights=need_weights, **kw)[0].sum().backward()
    return forward_backward


def _same(ours: nn.Module, ref: nn.Module, x: Tensor, pad: Tensor | None) -> bool:
    """Both modules compute the same outputs and weights (else the timing means nothing)."""
    with torch.no_grad():
        a = _mha_call(ours, x, pad, True, False, torch_style=False)()
        b = _mha_call(ref, x, pad, True, False, torch_style=True)()
        c = _mha_call(ours, x, pad, False, False, torch_style=False)()
    return (torch.allclose(a[0], b[0], atol=1e-5) and torch.allclose(a[1], b[1], atol=1e-5)
            and torch.allclose(c[0], b[0], atol=1e-5))


def bench_attention(ns: Sequence[int], batch: int, d: int, heads: int, repeats: int,
                    out: TextIO) -> list[dict]:
    """Our MultiHeadAttention vs torch.nn.MultiheadAttention with the same weights.

    Every n is timed without a mask and with key padding (each row keeps its first n/2 to n
    keys, as a padded batch does), on the fused path (no weights) and the weights path, for
    a forward under no_grad in eval mode and a forward + backward.
    """
    rows = []
    for n in ns:
        ref = nn.MultiheadAttention(d, heads, batch_first=True).eval()
        ours = MultiHeadAttention(d, heads).load_from_torch(ref).eval()
        x = torch.randn(batch, n, d)  # (B, n, d)
        lens = torch.linspace(n / 2, n, batch).round().long()  # (B,) from n/2 to n
        pad = torch.arange(n)[None, :] >= lens[:, None]  # (B, n) True = padded key
        for mask, p in (("none", None), ("padding", pad)):
            same = _same(ours, ref, x, p)
            for path, need in (("fused", False), ("weights", True)):
                for mode in ("fwd", "fwd+bwd"):
                    bwd = mode == "fwd+bwd"
                    fns = {"ours": _mha_call(ours, x, p, need, bwd, torch_style=False),
                           "torch": _mha_call(ref, x, p, need, bwd, torch_style=True)}
                    t = interleaved_medians(fns, repeats)
                    rows.append({"n": n, "mask": mask, "path": path, "mode": mode,
                                 "ours_ms": 1e3 * t["ours"], "torch_ms": 1e3 * t["torch"],
                                 "ratio": t["ours"] / t["torch"], "same_output": same})
    _print_table(out, f"multi-head attention, batch {batch}, d {d}, {heads} heads "
                      f"(median ms; ratio = ours / torch, same run)",
                 ["n", "mask", "path", "mode", "ours_ms", "torch_ms", "ratio", "same_output"],
                 [list(r.values()) for r in rows])
    for path in ("fused", "weights"):
        ratios = [r["ratio"] for r in rows if r["path"] == path]
        print(f"{path}: worst ratio {max(ratios):.3f}, median {statistics.median(ratios):.3f}",
              file=out)
    return rows


# ---------------------------------------------------------------- layer cost vs n and d


def _layers(d: int, heads: int) -> dict[str, nn.Module]:
    return {"self-attention": MultiHeadAttention(d, heads).eval(),
            "recurrent (GRU)": nn.GRU(d, d, batch_first=True).eval(),
            "convolutional (k=3)": nn.Conv1d(d, d, 3, padding=1).eval()}


def _layer_call(name: str, layer: nn.Module, x: Tensor) -> Callable[[], object]:
    if name.startswith("self"):
        return lambda: layer(x, x, x)
    if name.startswith("conv"):
        xt = x.transpose(1, 2).contiguous()  # (B, d, n): Conv1d wants channels first
        return lambda: layer(xt)
    return lambda: layer(x)


THEORY = {"self-attention": ("O(n²·d)", 4, 2), "recurrent (GRU)": ("O(n·d²)", 2, 4),
          "convolutional (k=3)": ("O(k·n·d²)", 2, 4)}


def bench_complexity(ns: Sequence[int], ds: Sequence[int], batch: int, repeats: int,
                     out: TextIO) -> dict:
    """Forward time of one layer of each kind on a grid of n and d, and its growth ratios."""
    heads = 4
    # Every (layer, n, d) cell is timed in one round-robin, so a change in background load
    # hits all cells alike instead of skewing the ratios between sizes.
    fns: dict[tuple[str, int, int], Callable[[], object]] = {}
    for d in ds:
        layers = _layers(d, heads)
        for n in ns:
            x = torch.randn(batch, n, d)  # (B, n, d)
            for name, layer in layers.items():
                fns[(name, n, d)] = _layer_call(name, layer, x)
    with torch.no_grad():
        grid = interleaved_medians(fns, repeats)
    rows, growth = [], []
    for name in THEORY:
        for d in ds:
            rows.append([name, d] + [1e3 * grid[(name, n, d)] for n in ns])
    _print_table(out, f"one layer's forward time (median ms), batch {batch}; columns n = "
                      f"{', '.join(map(str, ns))}", ["layer", "d", *[f"n={n}" for n in ns]], rows)
    d_big, n_big = ds[-1], ns[-1]
    for name, (cost, n_theory, d_theory) in THEORY.items():
        n_ratio = [grid[(name, ns[i + 1], d_big)] / grid[(name, ns[i], d_big)]
                   for i in range(len(ns) - 1)]
        d_ratio = [grid[(name, n_big, ds[i + 1])] / grid[(name, n_big, ds[i])]
                   for i in range(len(ds) - 1)]
        growth.append({"layer": name, "cost": cost, "n_doubles": n_ratio,
                       "n_theory": n_theory, "d_doubles": d_ratio, "d_theory": d_theory})
    _print_table(out, f"growth when n doubles (at d={d_big}) and when d doubles (at n={n_big})",
                 ["layer", "table says", "n×2 measured", "theory", "d×2 measured", "theory"],
                 [[g["layer"], g["cost"], " ".join(f"×{r:.2f}" for r in g["n_doubles"]),
                   f"×{g['n_theory']}", " ".join(f"×{r:.2f}" for r in g["d_doubles"]),
                   f"×{g['d_theory']}"] for g in growth])
    print("Theory is the leading term only: at small sizes fixed per-call costs flatten the "
          "ratios; the attention layer also has O(n·d²) projections.", file=out)
    return {"times_ms": {f"{k[0]}|n={k[1]}|d={k[2]}": 1e3 * v for k, v in grid.items()},
            "growth": growth}


# ---------------------------------------------------------------- time to 99% on reverse


class TorchTransformer(nn.Module):
    """torch.nn.Transformer behind our seq2seq protocol, sized and set up like ``cfg``.

    Same embeddings (scaled by √d), sinusoidal encoding, post-LN layers without a final
    LayerNorm, and output layer, so its parameter count equals our Transformer's. Only the
    layers differ: this is the baseline for "ours ≤ 1.0× torch's time". decode_step returns
    zero cross-attention: torch's decoder layers do not hand their weights out.
    """

    def __init__(self, cfg: TransformerConfig) -> None:
        super().__init__()
        cfg.validate()
        d, self.cfg, self.scale = cfg.d_model, cfg, math.sqrt(cfg.d_model)
        self.src_embed, self.tgt_embed = nn.Embedding(cfg.src_vocab, d), nn.Embedding(cfg.tgt_vocab, d)
        for emb in (self.src_embed, self.tgt_embed):
            nn.init.normal_(emb.weight, std=d**-0.5)
        self.register_buffer("pe", sinusoidal_table(cfg.max_len, d), persistent=False)
        layer_args = dict(d_model=d, nhead=cfg.heads, dim_feedforward=cfg.d_ff,
                          dropout=cfg.dropout, batch_first=True)
        encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(**layer_args), cfg.layers,
                                        enable_nested_tensor=False)
        decoder = nn.TransformerDecoder(nn.TransformerDecoderLayer(**layer_args), cfg.layers)
        self.core = nn.Transformer(d, cfg.heads, custom_encoder=encoder, custom_decoder=decoder,
                                   batch_first=True)
        self.out = nn.Linear(d, cfg.tgt_vocab)

    def num_parameters(self) -> int:
        return sum(p.numel() for p in self.parameters() if p.requires_grad)

    def encode(self, src: Tensor, src_lens: Tensor) -> tuple[Tensor, Tensor]:
        s = src.shape[1]
        pad = torch.arange(s, device=src.device)[None] >= src_lens[:, None]  # (B, S) True = pad
        x = self.src_embed(src) * self.scale + self.pe[:s]  # (B, S, d)
        return self.core.encoder(x, src_key_padding_mask=pad), pad

    def _decode(self, tgt: Tensor, state: tuple[Tensor, Tensor]) -> Tensor:
        memory, pad = state
        t = tgt.shape[1]
        future = torch.triu(torch.ones(t, t, dtype=torch.bool, device=tgt.device), 1)  # (T, T)
        y = self.tgt_embed(tgt) * self.scale + self.pe[:t]  # (B, T, d)
        return self.core.decoder(y, memory, tgt_mask=future, memory_key_padding_mask=pad,
                                 tgt_is_causal=True)

    def forward(self, src: Tensor, src_lens: Tensor, tgt_in: Tensor) -> Tensor:
        return self.out(self._decode(tgt_in, self.encode(src, src_lens)))  # (B, T, V)

    def decode_step(self, tgt_prefix: Tensor, state: tuple[Tensor, Tensor]):
        logits = self.out(self._decode(tgt_prefix, state)[:, -1])  # (B, V)
        memory = state[0]
        return logits, memory.new_zeros(memory.shape[0], self.cfg.heads, memory.shape[1])


def bench_reverse(seeds: Sequence[int], settings: dict, out: TextIO) -> dict:
    """Seconds of training until 99% greedy exact match, ours vs torch.nn.Transformer."""
    base = ExperimentConfig.from_preset("reverse", **settings, device="cpu")
    runs = []
    for seed in seeds:
        for name, builder in (("ours", None), ("torch", _torch_builder)):
            r = run_task("reverse", base.replace(seed=seed), model_builder=builder)
            runs.append({"model": name, "seed": seed, "steps": r["steps"],
                         "train_seconds": r["train_seconds"], "exact_match": r["exact_match"],
                         "parameters": r["parameters"], "reached": r["exact_match"] >= 0.99})
    _print_table(out, "reverse: training seconds to the 99% target (greedy, 1,000 held-out)",
                 ["model", "seed", "steps", "train_seconds", "exact_match", "parameters",
                  "reached"], [list(r.values()) for r in runs])
    med = {m: statistics.median(r["train_seconds"] for r in runs if r["model"] == m)
           for m in ("ours", "torch")}
    ms_step = {m: statistics.median(1e3 * r["train_seconds"] / r["steps"] for r in runs
                                    if r["model"] == m) for m in ("ours", "torch")}
    print(f"median seconds: ours {med['ours']:.2f}, torch {med['torch']:.2f}, ratio "
          f"{med['ours'] / med['torch']:.3f}; ms/step ours {ms_step['ours']:.1f}, torch "
          f"{ms_step['torch']:.1f} (ratio {ms_step['ours'] / ms_step['torch']:.3f})", file=out)
    return {"runs": runs, "median_seconds": med, "ratio": med["ours"] / med["torch"],
            "ms_per_step": ms_step}


def bench_translate(settings: dict, out: TextIO) -> dict:
    """The translate preset: training seconds and scores on held-out sentences (never trained on)."""
    r = run_task("translate", ExperimentConfig.from_preset("translate", **settings, seed=0,
                                                            device="cpu"))
    h = r["heldout"]
    rows = [[name, h[name]["n"], h[name]["bleu"], h[name]["bleu_d2l"], h[name]["exact_match"]]
            for name in ("all", "in_vocab")]
    _print_table(out, f"translate: held-out sentences after {r['steps']} steps, "
                 f"{r['train_seconds']:.1f} s (vocabulary covers {h['vocab_share']:.1%} of words)",
                 ["held-out", "sentences", "sacreBLEU", "D2L BLEU", "exact match"], rows)
    return {"steps": r["steps"], "train_seconds": r["train_seconds"], "heldout": h,
            "parameters": r["parameters"]}


def _torch_builder(src_vocab: int, tgt_vocab: int, c: ExperimentConfig) -> nn.Module:
    torch.manual_seed(c.seed)
    return TorchTransformer(c.model_config(src_vocab, tgt_vocab))


# ---------------------------------------------------------------- entry point


def run_bench(quick: bool = False, sections: Sequence[str] = SECTIONS, repeats: int | None = None,
              out: TextIO = sys.stdout) -> dict:
    """Run the chosen sections and print their tables; returns the figures as a dict."""
    sections = [s.strip() for s in sections if s.strip()]
    unknown = [s for s in sections if s not in SECTIONS]
    if unknown or not sections:
        raise lab_error("bench_unknown_sections", sections=unknown or sections,
                        choices=", ".join(SECTIONS))
    reps = repeats or (3 if quick else 7)
    load = _load_average()
    print(f"# bench: torch {torch.__version__}, {torch.get_num_threads()} threads, "
          f"load average {load}, {'quick' if quick else 'full'}, {reps} repeats", file=out)
    report: dict = {"threads": torch.get_num_threads(), "load_average": load, "quick": quick,
                    "seconds": {}}
    clock = {"wall": time.perf_counter(), "cpu": time.process_time()}

    def done(section: str) -> None:
        """Wall and CPU seconds of the section just run (CPU holds on a shared machine: a
        loaded host stretches wall time, not the work done)."""
        wall, cpu = time.perf_counter() - clock["wall"], time.process_time() - clock["cpu"]
        report["seconds"][section] = {"wall": wall, "cpu": cpu}
        print(f"[{section}: {wall:.1f} s wall, {cpu:.1f} s CPU of this process]", file=out)
        clock.update(wall=time.perf_counter(), cpu=time.process_time())

    if "attention" in sections:
        ns = (16, 32) if quick else (32, 64, 128, 256, 512, 1024)
        report["attention"] = bench_attention(ns, batch=2 if quick else 16, d=32 if quick else 128,
                                              heads=4, repeats=reps, out=out)
        done("attention")
    if "complexity" in sections:
        ns, ds = ((16, 32), (16, 32)) if quick else ((128, 256, 512, 1024), (64, 128, 256))
        report["complexity"] = bench_complexity(ns, ds, batch=2 if quick else 8, repeats=reps,
                                                out=out)
        done("complexity")
    if "reverse" in sections:
        tiny = dict(min_len=3, max_len=5, vocab_size=6, steps=60, target=0.9, val_size=128,
                    eval_every=20, d_model=16, d_ff=32, batch_size=32)
        report["reverse"] = bench_reverse((0,) if quick else (0, 1, 2), tiny if quick else {},
                                          out=out)
        done("reverse")
    if "translate" in sections:
        tiny = dict(steps=20, d_model=16, d_ff=32, heads=2, eval_every=10)
        report["translate"] = bench_translate(tiny if quick else {}, out=out)
        done("translate")
    return report


def _load_average() -> str:
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "unknown"
