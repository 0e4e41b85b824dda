"""One thread policy for the process tree: how many torch threads this process may use.

A Space has 2 vCPUs shared by the app, its grader workers and every training run; two spinning
OpenMP threads per process then oversubscribe the cores and small matmuls run ~20× slower
(pytorch#144633; measured here: `bench --sections reverse` did not finish in 10 minutes with 2
threads at load ~15, and took 181 s with 1). So:

- the cores this process may really use are its CPU affinity, capped by a cgroup CPU quota
  (a container's `cpu.max`), whichever is smaller;
- on 2 cores or fewer every process uses 1 thread; on a larger host half the cores (the rest
  stay free for the grader's workers and the app's own work);
- ``LAB_TORCH_THREADS`` overrides it (a positive whole number).

The app sets it once at start (app.warm_up), the grader's workers use 1 each
(grader/sandbox/worker.py), and `python -m transformer_lab train|bench` default to it.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from pathlib import Path

from transformer_lab.settings import LibrarySettings

CGROUP_CPU_MAX = Path("/sys/fs/cgroup/cpu.max")


def _quota(path: Path = CGROUP_CPU_MAX) -> float | None:
    """The cgroup v2 CPU quota in cores ("max" or no file: None)."""
    try:
        quota, period = path.read_text().split()[:2]
    except (OSError, ValueError):
        return None
    if quota == "max":
        return None
    try:
        return int(quota) / int(period)
    except (ValueError, ZeroDivisionError):
        return None


def available_cores(cpu_max: Path = CGROUP_CPU_MAX) -> int:
    """The cores this process may use: its affinity, capped by the cgroup quota (at least 1)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        cores = os.cpu_count() or 1
    quota = _quota(cpu_max)
    if quota is not None:
        cores = min(cores, max(1, math.ceil(quota)))
    return max(1, cores)


def default_threads(environ: Mapping[str, str] | None = None, cores: int | None = None) -> int:
    """Torch threads for this process under the policy (see the module); ValueError naming
    LAB_TORCH_THREADS when it is set to anything but a positive whole number."""
    chosen = LibrarySettings.read("torch_threads", environ)
    if chosen is not None:
        return chosen
    cores = available_cores() if cores is None else cores
    return 1 if cores <= 2 else cores // 2
