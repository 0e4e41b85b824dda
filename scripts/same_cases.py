"""Do an exercise's hidden cases build the same as at a git revision? For a rewrite of a
``hidden/<id>/tests.py`` that must change nothing a learner or a figure sees.

    python scripts/same_cases.py causal-mask [--rev HEAD] [--seeds 1 20260101]

Builds the file as it is now and as it was at ``--rev`` with each seed and compares every
case: name, Chinese name, points, hint, and every step (tensors by dtype, shape and value).
Prints the first difference per case and exits 1 on any.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader.exercises import _load_module  # noqa: E402


def diff(a, b, where: str) -> str | None:
    """The first place ``a`` and ``b`` differ, or None."""
    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)):
            return f"{where}: {type(a).__name__} vs {type(b).__name__}"
        if a.dtype != b.dtype or a.shape != b.shape:
            return f"{where}: {a.dtype}{tuple(a.shape)} vs {b.dtype}{tuple(b.shape)}"
        return None if torch.equal(a, b) else f"{where}: values differ"
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        same = (isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.dtype == b.dtype
                and a.shape == b.shape and np.array_equal(a, b, equal_nan=True))
        return None if same else f"{where}: arrays differ"
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            return f"{where}: keys {sorted(a)} vs {sorted(b)}"
        return next((d for k in a if (d := diff(a[k], b[k], f"{where}.{k}"))), None)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        if type(a) is not type(b) or len(a) != len(b):
            return f"{where}: {type(a).__name__}[{len(a)}] vs {type(b).__name__}[{len(b)}]"
        return next((d for i, (x, y) in enumerate(zip(a, b, strict=True)) if (d := diff(x, y, f"{where}[{i}]"))), None)
    if type(a) is not type(b) or a != b:
        return f"{where}: {a!r} vs {b!r}"
    return None


def build(path: Path, seed: int) -> list:
    module = _load_module(path, f"tests_{abs(hash(str(path)))}")
    return module.build(torch.Generator().manual_seed(seed))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("exercise")
    parser.add_argument("--rev", default="HEAD")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 20260101])
    args = parser.parse_args(argv)
    rel = f"hidden/{args.exercise}/tests.py"
    old_text = subprocess.run(["git", "show", f"{args.rev}:{rel}"], cwd=ROOT, check=True,
                              capture_output=True, text=True).stdout
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "tests.py"
        old.write_text(old_text)
        for seed in args.seeds:
            was, now = build(old, seed), build(ROOT / rel, seed)
            if len(was) != len(now):
                print(f"seed {seed}: {len(was)} cases at {args.rev}, {len(now)} now")
                bad += 1
                continue
            for i, (a, b) in enumerate(zip(was, now, strict=True)):
                fields = ("name", "zh", "points", "hint", "visible", "steps")
                found = next((d for f in fields if (d := diff(getattr(a, f), getattr(b, f), f))), None)
                if found:
                    print(f"seed {seed} case {i} ({a.name!r}): {found}")
                    bad += 1
    lines = (len(old_text.splitlines()), len((ROOT / rel).read_text().splitlines()))
    print(f"{args.exercise}: {'same' if not bad else f'{bad} differences'}; "
          f"tests.py {lines[0]} -> {lines[1]} lines")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
