"""Where the grader's files live and the deployment settings it reads from the environment.

The one definition of the repository root for the grader (the app may import it too), of the
hidden-test folder and of the per-deployment seed; nothing here imports torch.
``GraderSettings`` declares every ``LAB_*`` variable the grader reads (transformer_lab/settings.py
describes the form); this is the grader's settings module, and the sandbox may import it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from transformer_lab.settings import PATH, Settings, choice, number, setting

REPO_ROOT = Path(__file__).resolve().parent.parent
EXERCISES_DIR = REPO_ROOT / "exercises"  # the public part of every exercise
DEFAULT_SEED = 20260101
DEFAULT_WORKERS = 2
SANDBOX_LEVELS = ("basic", "isolated", "full", "strict")  # weakest first (grader.sandbox.confine)


@dataclass(frozen=True)
class GraderSettings(Settings):
    """The grader's: its hidden tests, their seed, its workers, its weakest sandbox."""

    hidden_dir: Path = setting("LAB_HIDDEN_DIR", REPO_ROOT / "hidden", "where the hidden tests are",
                               PATH, shown="`hidden/`")
    seed: int = setting("LAB_GRADER_SEED", DEFAULT_SEED,
                        "the seed of the command-line grader's hidden inputs",
                        number(int, minimum=-math.inf))
    workers: int = setting("LAB_GRADER_WORKERS", DEFAULT_WORKERS,
                           "warm grader workers, gradings at once", number(int))
    # None: what the host offers, but never below grader.sandbox.confine.FLOOR
    sandbox_min: str | None = setting(
        "LAB_SANDBOX_MIN", None, "the weakest sandbox the grader accepts",
        choice(SANDBOX_LEVELS), shown="what the host offers, at least `isolated`")


def hidden_root() -> Path:
    """Where hidden tests live: ``$LAB_HIDDEN_DIR`` or ``hidden/`` at the repository top."""
    return GraderSettings.read("hidden_dir").resolve()


def deployment_seed() -> int:
    """The per-deployment seed for hidden inputs (``$LAB_GRADER_SEED``)."""
    return GraderSettings.read("seed")


def grader_workers(env: Mapping[str, str] | None = None) -> int:
    """How many warm workers the app's grader starts (``$LAB_GRADER_WORKERS``, default 2); the
    one reading of that variable (the serving wing sizes its grading turns with it)."""
    return GraderSettings.read("workers", env)
