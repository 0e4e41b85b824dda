"""Run by test_nonroot.py as uid 1000 (as the app runs on a Space): grade, attack, print JSON."""

from __future__ import annotations

import json
import os
import sys

from grader.api import Grader, SandboxUnavailable, protected_paths
from grader.exercises import get
from grader.sandbox.pool import WorkerPool

EX = get("manual-attention")
me = os.getpid()
SPY = f"""
out = {{}}
for name, path in [("environ", "/proc/{me}/environ"), ("mem", "/proc/{me}/maps"),
                   ("reference", {str(EX.hidden_dir / 'reference.py')!r})]:
    try:
        out[name] = open(path, "rb").read(200).decode("latin-1")
    except OSError as exc:
        out[name] = "DENIED " + type(exc).__name__
print("SPY", out)
"""


def run() -> dict:
    result: dict = {"uid": os.getuid()}
    with Grader(workers=1, max_wall_s=2.0) as g:
        result["level"] = g.sandbox_level()
        result["reference_full"] = g.grade(EX.id, EX.reference_source()).full_marks
        result["spy"] = g.run_examples(EX.id, SPY).output
    for layer in ("landlock", "seccomp"):
        with Grader(pool=WorkerPool(protected=protected_paths(), without=(layer,))) as g:
            try:
                g.grade(EX.id, SPY)
                result[f"without_{layer}"] = "graded"
            except SandboxUnavailable as exc:
                result[f"without_{layer}"] = "refused: " + str(exc)
    # Knowingly weaker (no Landlock): non-dumpability alone keeps our /proc files closed.
    os.environ["LAB_SANDBOX_MIN"] = "basic"
    with Grader(pool=WorkerPool(protected=protected_paths(), without=("landlock",))) as g:
        result["spy_without_landlock"] = g.run_examples(EX.id, SPY).output
    return result


if __name__ == "__main__":
    json.dump(run(), sys.stdout)
