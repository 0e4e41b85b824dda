"""Stage 1 of grading: an exercise's cases with their expected and known-wrong outputs.

A bundle is everything the judge needs that the learner must never see: the cases, the
reference's records, each known mistake's records and the exercise's diagnoser. Public
examples make a bundle too (literal expected values, no mistakes), so every grade takes one.

Building a bundle runs the reference and every mistake file on the trusted side (that needs
torch). The result is plain data, so it is also written next to the hidden tests
(``<hidden>/.cache/``, private like them) and later processes, such as the cold CLI, load it
without importing torch at all. Any change to the hidden files or the engine changes the key.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

from grader import variants
from grader.exercises import Exercise
from grader.sandbox import codec, runner
from grader.spec import Case
from grader.typed import Mistake, Record, Run, TestCase, records_of

ENGINE_FILES = ("sandbox/runner.py", "sandbox/jobs.py", "sandbox/fixtures.py", "sandbox/codec.py",
                "spec.py", "bundle.py", "mistakes.py", "variants.py")


@dataclass
class Bundle:
    """Cases, the reference's records per case and the known mistakes (all trusted data).

    ``mistakes`` may be a function that runs them: a fresh bundle runs them only when grading
    needs them (a case failed). ``diagnose`` is ``hidden/<id>/diagnose.py``'s function, if any.
    """

    cases: list[Case]
    expected: dict[int, list[Record]]
    mistakes: list[Mistake] | Callable[[], list[Mistake]] = field(default_factory=list)
    exercise_id: str = ""
    diagnose: Callable | None = None

    @cached_property
    def tests(self) -> list[TestCase]:
        """The cases, typed (built once per bundle)."""
        return [TestCase.of(c) for c in self.cases]

    def known_mistakes(self) -> list[Mistake]:
        """The known mistakes with their records, run now if they were deferred."""
        if callable(self.mistakes):
            self.mistakes = self.mistakes()
        return self.mistakes


def examples(ex: Exercise) -> Bundle:
    """The public examples: their expected values are written in examples.py."""
    return Bundle(ex.examples(), {}, [], ex.id)


def fresh(ex: Exercise, seed: int, values: variants.Values | None = None) -> Bundle:
    """Hidden cases drawn for one submission, with the reference's records; the mistakes' records
    only when grading asks for them (a case failed). Nothing is cached, so no two submissions
    share inputs and no feedback from one helps answer another. ``values``: the learner's own
    numbers (grader/variants.py), rendered into the reference and every mutant."""
    cases = ex.hidden_cases(seed, cache=False)
    expected = trusted_records(variants.render(ex.reference_source(), values), cases).cases
    return Bundle(cases, expected, lambda: _run_mistakes(ex, cases, values), ex.id, ex.diagnoser())


_LOADED: dict[tuple[str, int, str], Bundle] = {}
_LOCK = threading.Lock()  # one build at a time: a second caller waits and then reads memory
MAX_VARIANT_BUNDLES = 32  # a fixed-seed grader (CLI, tests) keeps this many learners' bundles


def load(ex: Exercise, seed: int, values: variants.Values | None = None) -> Bundle:
    """The bundle from memory, else from the disk cache, else built (and cached when possible).
    A learner's own values are kept in memory only (a few, the oldest dropped first)."""
    key = (ex.id, seed, variants.digest(values))
    with _LOCK:
        if key not in _LOADED:
            if values:
                held = [k for k in _LOADED if k[2]]
                for old in held[:max(0, len(held) - MAX_VARIANT_BUNDLES + 1)]:
                    del _LOADED[old]
            _LOADED[key] = build(ex, seed, values) if values else _load_or_build(ex, seed)
        return _LOADED[key]


def build(ex: Exercise, seed: int, values: variants.Values | None = None) -> Bundle:
    """Run the reference and every mistake on the hidden cases (trusted, in this process)."""
    cases = ex.hidden_cases(seed)
    expected = trusted_records(variants.render(ex.reference_source(), values), cases).cases
    return Bundle(cases, expected, _run_mistakes(ex, cases, values), ex.id, ex.diagnoser())


def trusted_records(source: str, cases: list[Case]) -> Run:
    """Run trusted code (reference or mistake) in-process on ``cases``."""
    return Run.of(runner.run_trusted(source, [c.steps for c in cases]))


def _run_mistakes(ex: Exercise, cases: list[Case], values: variants.Values | None = None) -> list[Mistake]:
    return [replace(m, records=trusted_records(variants.render(m.source, values), cases).cases)
            for m in ex.mistakes()]


def _load_or_build(ex: Exercise, seed: int) -> Bundle:
    path = _cache_path(ex, seed)
    if path.is_file():
        try:
            return _from_data(codec.unpack(path.read_bytes()), ex.id, ex.diagnoser())
        except (codec.CodecError, KeyError, TypeError, ValueError):
            pass  # stale or damaged: rebuild
    bundle = build(ex, seed)
    try:
        path.parent.mkdir(mode=0o700, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent)
        with os.fdopen(fd, "wb") as f:
            f.write(codec.pack(_to_data(bundle)))
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only hidden dir only costs the rebuild next time
    return bundle


def _digest(ex: Exercise, seed: int) -> str:
    h = hashlib.sha256(f"{ex.id}:{seed}".encode())
    engine = Path(__file__).parent
    files = [engine / f for f in ENGINE_FILES] + sorted(ex.hidden_dir.rglob("*.py")) + sorted(
        ex.hidden_dir.rglob("*.json"))
    for f in files:
        h.update(str(f.name).encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:20]


def _cache_path(ex: Exercise, seed: int) -> Path:
    return ex.hidden_dir.parent / ".cache" / f"{ex.id}-{seed}-{_digest(ex, seed)}.bin"


def _wire(records: dict[int, list[Record]], n: int) -> list:
    return [[r.to_wire() for r in records[i]] if i in records else None for i in range(n)]


def _typed(records: list) -> dict[int, list[Record]]:
    return {i: records_of(r) for i, r in enumerate(records) if r is not None}


def _to_data(b: Bundle) -> dict:
    """The on-disk form: plain data (cases as authored, records as the runner writes them)."""
    cases = [{"name": c.name, "points": c.points, "steps": c.steps, "hint": c.hint, "zh": c.zh}
             for c in b.cases]
    mistakes = [[m.name, m.message, _wire(m.records, len(b.cases))] for m in b.mistakes]
    return {"cases": cases, "expected": _wire(b.expected, len(b.cases)), "mistakes": mistakes}


def _from_data(d: dict, exercise_id: str = "", diagnose: Callable | None = None) -> Bundle:
    cases = [Case(c["name"], c["points"], c["steps"], c["hint"], zh=c.get("zh")) for c in d["cases"]]
    return Bundle(cases, _typed(d["expected"]),
                  [Mistake(name, msg, records=_typed(recs)) for name, msg, recs in d["mistakes"]],
                  exercise_id, diagnose)
