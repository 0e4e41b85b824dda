"""Public API of the grader, for the web app and the command line. Never imports gradio."""

from __future__ import annotations

import logging
import secrets
import threading
from dataclasses import dataclass, replace
from pathlib import Path

from grader import exercises as _ex
from grader import variants
from grader.exercises import Exercise, UnknownExercise
from grader.paths import REPO_ROOT, GraderSettings, deployment_seed, grader_workers, hidden_root
from grader.report import Report, TestResult, render
from grader.sandbox.pool import SandboxUnavailable, WorkerError, WorkerPool
from grader.spec import Case
from grader.submission import SubmissionError, read_submission

# What the app and the command line use of the grader: nothing else is imported from outside
# (tests/webapp/test_structure.py checks the web app).
__all__ = ["Exercise", "ExerciseInfo", "Grader", "GraderSettings", "Report", "SandboxUnavailable",
           "SubmissionError",
           "check_exercise", "check_submission",
           "TestResult", "UnknownExercise", "WorkerError", "YOUR_NUMBERS", "all_exercises",
           "default_grader", "get_exercise", "grade", "grader_workers", "list_exercises", "render",
           "run_examples", "sandbox_level", "set_undumpable", "summarise", "with_your_numbers",
           "your_numbers"]


def all_exercises() -> dict[str, Exercise]:
    """Every exercise's public part (statement, starter, titles), in lesson order: no hidden
    file is read and nothing is built."""
    return _ex.all_exercises()


def summarise(report: Report) -> None:
    """Write a report's summary line (passed tests, score) from its tests, as grading does."""
    from grader.grading import summarise as _summarise

    _summarise(report)


def set_undumpable() -> None:
    """Keep this process's memory out of reach of learner code running as the same user."""
    from grader.sandbox.confine import set_undumpable as _set

    _set()


@dataclass
class ExerciseInfo:
    """What a learner may see of an exercise."""

    id: str
    number: int
    title: dict[str, str]
    statement: dict[str, str]
    starter_code: str
    examples: list[Case]
    max_score: float | None


def list_exercises() -> list[ExerciseInfo]:
    """Every exercise, in lesson order."""
    return [get_exercise(i) for i in _ex.all_exercises()]


def get_exercise(exercise_id: str) -> ExerciseInfo:
    """Statement (en/zh), starter code and public examples of one exercise."""
    ex = _ex.get(exercise_id)
    from grader import bundle

    max_score = (sum(c.points for c in bundle.load(ex, deployment_seed()).cases)
                 if ex.has_hidden() else None)
    return ExerciseInfo(ex.id, ex.number, ex.title, ex.statement, ex.starter, ex.examples(), max_score)


class Grader:
    """A warm grader: start it once (workers import torch once), then grade from any thread."""

    def __init__(self, workers: int = 1, seed: int | None = None, debug: bool = False,
                 max_wall_s: float | None = None, pool: WorkerPool | None = None,
                 fresh_inputs: bool = False) -> None:
        self.seed = deployment_seed() if seed is None else seed
        # A server draws new hidden inputs for every submission: pass/fail per case, exit codes
        # and timing then leak nothing that helps the next submission. A local grader (CLI, the
        # tests) keeps one seed and its cached bundle: whoever runs it has the hidden files.
        self.fresh_inputs = fresh_inputs
        self.max_wall_s = max_wall_s  # caps every exercise's time limits (tests, busy servers)
        self.pool = pool or WorkerPool(size=workers, protected=protected_paths(), debug=debug)

    def spawn(self) -> Grader:
        """Begin starting the workers now (they import torch while the caller goes on);
        :meth:`start` finishes. The command line spawns before it reads the submission."""
        self.pool.spawn()
        return self

    def start(self) -> Grader:
        from grader.sandbox.confine import set_undumpable

        set_undumpable()  # learner code of our uid must not read this process's /proc files
        self.pool.start()
        return self

    def close(self) -> None:
        self.pool.close()

    def __enter__(self) -> Grader:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    def sandbox_level(self) -> dict:
        """What confinement the host allowed (user, landlock ABI, seccomp...) and a summary."""
        return self.pool.level

    def grade(self, exercise_id: str, source: str | Path, learner: str | None = None,
              learner_id: str | None = None) -> Report:
        """Grade a submission (text, .py or .ipynb path) against the hidden tests.
        ``learner``: the label the report carries; ``learner_id``: whose own numbers an
        exercise with variants grades (grader/variants.py; None: the lesson's numbers)."""
        from grader import bundle, grading  # torch only when a bundle must be built

        ex = _ex.get(exercise_id)
        text = read_submission(source)
        values = ex.variant_values(learner_id)
        cases = (bundle.fresh(ex, secrets.randbits(62), values) if self.fresh_inputs
                 else bundle.load(ex, self.seed, values))
        report = grading.grade(cases, text, self.pool, self._limits(ex))
        report.learner = learner
        return report

    def run_examples(self, exercise_id: str, source: str | Path) -> Report:
        """Run only the public examples (their expected values are written in examples.py)."""
        from grader import bundle, grading

        ex = _ex.get(exercise_id)
        text = read_submission(source)
        return grading.grade(bundle.examples(ex), text, self.pool, self._limits(ex))

    def _limits(self, ex: Exercise):
        if self.max_wall_s is None:
            return ex.limits
        wall = min(ex.limits.wall_s, self.max_wall_s)
        return replace(ex.limits, wall_s=wall, cpu_s=max(1, min(ex.limits.cpu_s, int(wall))))


def check_submission(exercise_id: str, source: str | Path) -> None:
    """Refuse before any worker starts: UnknownExercise, SubmissionError (a file that is no
    submission: a Refused with its reason) or OSError (no such file)."""
    _ex.get(exercise_id)
    read_submission(source)


def check_exercise(grader: Grader, exercise_id: str, verbose: bool = False) -> list[str]:
    """What ``python -m grader check`` finds wrong with an authored exercise (empty: sound):
    the reference at full marks, every mistake named, both languages, no leaking example, a
    stable variant (grader/selfcheck.py)."""
    from grader.selfcheck import check_exercise as check

    return check(grader, exercise_id, verbose=verbose)


def protected_paths() -> list[str]:
    """What sandboxed code must never read: the repository (tests, solutions) and the hidden dir."""
    return [str(REPO_ROOT), str(hidden_root())]


_DEFAULT: Grader | None = None
_DEFAULT_LOCK = threading.Lock()


def default_grader() -> Grader:
    """A process-wide warm grader, started on first use."""
    global _DEFAULT
    with _DEFAULT_LOCK:
        if _DEFAULT is None:
            # Two workers by default: one submission running to its wall limit must not stall
            # everyone behind it (load test, 50 mixed submissions: p95 12.4 s with 1, 3.4-4.7 s with 2).
            _DEFAULT = Grader(workers=grader_workers(),
                              fresh_inputs=True).start()
            level = _DEFAULT.sandbox_level()
            refusal = _DEFAULT.pool.refusal()
            log = logging.getLogger("grader")
            log.info("grader sandbox level %s (required %s): %s", level.get("summary"),
                     level.get("required"), level)
            if refusal:
                log.error("%s", refusal)
        return _DEFAULT


def grade(exercise_id: str, source: str | Path, learner: str | None = None,
          learner_id: str | None = None) -> Report:
    """Grade with the process-wide warm grader (``learner_id``: whose own numbers, if the
    exercise gives each learner theirs)."""
    return default_grader().grade(exercise_id, source, learner, learner_id)


YOUR_NUMBERS = variants.MARKER  # where a statement shows the learner's own numbers


def with_your_numbers(exercise_id: str, source: str, learner_id: str | None) -> str:
    """``source`` (the starter) holding the learner's own numbers where the exercise gives each
    learner theirs; unchanged otherwise. Needs no torch."""
    return variants.render(source, _ex.get(exercise_id).variant_values(learner_id))


def your_numbers(exercise_id: str, learner_id: str | None) -> str | None:
    """The learner's own numbers for an exercise with variants, as they read them (code), or
    None (no variants, or no learner). Needs no torch."""
    ex = _ex.get(exercise_id)
    values = ex.variant_values(learner_id)
    return None if values is None else variants.show(ex.public_dir, values)


def run_examples(exercise_id: str, source: str | Path) -> Report:
    """Run the public examples with the process-wide warm grader."""
    return default_grader().run_examples(exercise_id, source)


def sandbox_level() -> dict:
    """The confinement level of the process-wide grader's workers."""
    return default_grader().sandbox_level()
