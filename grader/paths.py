"""Where the grader's files live and the deployment settings it reads from the environment.

The one definition of the repository root for the grader (the app may import it too), of the
hidden-test folder and of the per-deployment seed; nothing here imports torch.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
EXERCISES_DIR = REPO_ROOT / "exercises"  # the public part of every exercise
DEFAULT_SEED = 20260101
DEFAULT_WORKERS = 2


def hidden_root() -> Path:
    """Where hidden tests live: ``$LAB_HIDDEN_DIR`` or ``hidden/`` at the repository top."""
    return Path(os.environ.get("LAB_HIDDEN_DIR") or REPO_ROOT / "hidden").resolve()


def deployment_seed() -> int:
    """The per-deployment seed for hidden inputs (``$LAB_GRADER_SEED``)."""
    raw = os.environ.get("LAB_GRADER_SEED", "")
    try:
        return int(raw) if raw else DEFAULT_SEED
    except ValueError:
        raise ValueError(f"LAB_GRADER_SEED must be an integer, got {raw!r}") from None


def grader_workers(env: Mapping[str, str] | None = None) -> int:
    """How many warm workers the app's grader starts (``$LAB_GRADER_WORKERS``, default 2); the
    one reading of that variable (the serving wing sizes its grading turns with it)."""
    raw = (os.environ if env is None else env).get("LAB_GRADER_WORKERS", "").strip()
    if not raw:
        return DEFAULT_WORKERS
    if not raw.isdigit() or int(raw) < 1:
        raise ValueError(f"LAB_GRADER_WORKERS must be a positive integer, got {raw!r}")
    return int(raw)
