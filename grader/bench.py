"""Benchmark: warm grading vs a fresh interpreter per submission, the cold CLI, and the trusted
CPU of the worst result a learner can send (grader/worstcase.py)."""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from grader.api import Grader
from grader.exercises import get
from grader.paths import REPO_ROOT

EXERCISE = "multi-head-attention"


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def main(runs: int = 20) -> int:
    source = get(EXERCISE).reference_source()
    with Grader() as grader:
        first = grader.grade(EXERCISE, source)  # fills the reference/mistake caches
        assert first.full_marks, "the reference must score full marks"
        warm = []
        for _ in range(runs):
            t0 = time.perf_counter()
            report = grader.grade(EXERCISE, source)
            warm.append(time.perf_counter() - t0)
            assert report.full_marks
        # A failing submission with its diagnosis: a hard-coded scale of 0.5 matches no mistake
        # file, so the diagnoser and the stage observations (grader/feedback/observe.py) all run.
        wrong = source.replace("/ math.sqrt(self.d_k)", "* 0.5")
        assert not grader.grade(EXERCISE, wrong).full_marks, "the failing submission must lose points"
        failing = []
        for _ in range(runs):
            t0 = time.perf_counter()
            grader.grade(EXERCISE, wrong)
            failing.append(time.perf_counter() - t0)
        level = grader.sandbox_level()
    import torch

    torch.set_num_threads(1)  # as the app does: the trusted side's reference runs on one core
    with Grader(fresh_inputs=True) as server:  # as the app grades: new hidden inputs each time
        server.grade(EXERCISE, source)
        fresh_warm = []
        for _ in range(runs):
            t0 = time.perf_counter()
            assert server.grade(EXERCISE, source).full_marks
            fresh_warm.append(time.perf_counter() - t0)
    cases = len(first.tests)
    fresh = []
    for _ in range(3):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import torch"], check=True)
        fresh.append(time.perf_counter() - t0)
    cli = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "submission.py"
        path.write_text(source)
        for _ in range(3):
            t0 = time.perf_counter()
            out = subprocess.run([sys.executable, "-m", "grader", "grade", EXERCISE, str(path), "--json"],
                                 cwd=REPO_ROOT, capture_output=True, text=True, check=True)
            cli.append(time.perf_counter() - t0)
            assert '"score"' in out.stdout
    from grader import worstcase

    worst_cpu, worst_ex, worst_which, worst_name = worstcase.worst()[0]
    w, f, c = _median_ms(warm), _median_ms(fresh), _median_ms(cli)
    print(f"sandbox level: {level.get('summary')} ({level})")
    print(f"warm grade, {EXERCISE} ({cases} hidden tests), correct, median of {runs}: {w:.1f} ms "
          f"(min {min(warm) * 1000:.1f}, max {max(warm) * 1000:.1f}); target <= 50 ms")
    print(f"warm grade, {EXERCISE}, failing with its diagnosis, median of {runs}: "
          f"{_median_ms(failing):.1f} ms (max {max(failing) * 1000:.1f}); target <= 250 ms")
    print(f"warm grade with fresh hidden inputs per submission (the app), median of {runs}: "
          f"{_median_ms(fresh_warm):.1f} ms; target <= 150 ms")
    print(f"fresh `python -c 'import torch'` per submission, median of 3: {f:.0f} ms")
    print(f"speed-up of warm grading over a fresh interpreter: {f / w:.1f}x (target >= 10x)")
    print(f"cold CLI `python -m grader grade ... --json`, median of 3: {c / 1000:.2f} s (target <= 4 s)")
    print(f"worst result bytes under the size cap (grader/worstcase.py, every exercise): "
          f"{worst_cpu * 1000:.1f} ms of trusted CPU ({worst_ex}, {worst_which}, {worst_name}); "
          "target <= 200 ms")
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 20))
