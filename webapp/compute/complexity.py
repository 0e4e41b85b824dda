"""Complexity page: a benchmark small enough for seconds, as the long table complexity_figure reads."""

from __future__ import annotations

import io
import re

import pandas as pd

from webapp.i18n import Term, input_error

MAX_N = 1024
MAX_POINTS = 6


def parse_sizes(text: str) -> list[int]:
    """'64, 128, 256' → [64, 128, 256]: increasing lengths between 2 and MAX_N. What is wrong is
    said in the order a learner can act on it: not numbers, out of range, then how many (the
    chromium walk: "abc" and one huge number were both told "give at least two lengths")."""
    parts = [p for p in re.split(r"[,\s]+", text or "") if p]
    if len(parts) > 8 * MAX_POINTS:  # a pasted essay: say how many before reading it all
        raise input_error("sizes_too_many", n=MAX_POINTS)
    try:
        sizes = [int(p) for p in parts]
    except ValueError:
        raise input_error("sizes_not_whole", text=text) from None
    if any(not 2 <= n <= MAX_N for n in sizes):
        raise input_error("sizes_range", high=MAX_N)
    sizes = sorted(set(sizes))
    if len(sizes) < 2:
        raise input_error("sizes_too_few")
    if len(sizes) > MAX_POINTS:
        raise input_error("sizes_too_many", n=MAX_POINTS)
    return sizes


def run_complexity(sizes: list[int], d: int = 64, batch: int = 8, repeats: int = 3) -> pd.DataFrame:
    """Median forward time of one layer of each kind: columns layer, n, d, ms."""
    from transformer_lab.bench import bench_complexity

    if not 8 <= d <= 256:
        raise input_error("between_plain", name=Term("width_d"), low=8, high=256, got=d)
    result = bench_complexity(sizes, [d], batch, repeats, io.StringIO())
    rows = []
    for key, ms in result["times_ms"].items():
        layer, n, width = key.split("|")  # "self-attention|n=64|d=32"
        rows.append((layer, int(n[2:]), int(width[2:]), ms))
    return pd.DataFrame(rows, columns=["layer", "n", "d", "ms"])
