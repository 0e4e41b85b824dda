"""Loads exercises: the public part from exercises/, the private part from the hidden directory."""

from __future__ import annotations

import importlib.util
import json
import threading
from dataclasses import dataclass, field
from pathlib import Path

from grader import mistakes, variants
from grader.paths import EXERCISES_DIR, hidden_root
from grader.spec import Case, JobLimits
from grader.typed import Mistake


class UnknownExercise(KeyError):
    """No exercise with that id."""

    def __str__(self) -> str:
        return f"unknown exercise {self.args[0]!r}; run `python -m grader list` to see them"


def _load_module(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_TESTS: dict[str, tuple[tuple[int, int], object]] = {}  # path -> ((mtime_ns, size), module)
_TESTS_LOCK = threading.Lock()


def _tests_module(path: Path, name: str):
    """A tests file's module, loaded once while the file is unchanged: fresh cases for every
    submission call its ``build(rng)`` again, and executing the file each time was 6% of the
    app's CPU when a class submitted at once (py-spy, issue 17). ``build`` takes all its
    randomness from ``rng`` and keeps no state in the module (tests/grader/test_fresh_cases.py
    checks that the held module builds what a fresh load builds)."""
    stat = path.stat()
    stamp = (stat.st_mtime_ns, stat.st_size)
    with _TESTS_LOCK:
        held = _TESTS.get(str(path))
        if held is None or held[0] != stamp:
            held = _TESTS[str(path)] = (stamp, _load_module(path, name))
        return held[1]


def _build_cases(path: Path, name: str, seed: int, visible: bool) -> list[Case]:
    import torch

    module = _tests_module(path, name)
    rng = torch.Generator().manual_seed(seed)
    cases = module.build(rng)
    for case in cases:
        case.visible = visible
    return cases


@dataclass
class Exercise:
    """One exercise: public metadata and text; hidden material loaded on demand."""

    id: str
    number: int
    title: dict[str, str]
    limits: JobLimits
    statement: dict[str, str]
    starter: str
    public_dir: Path
    _cache: dict = field(default_factory=dict, repr=False)
    _lock: threading.RLock = field(default_factory=threading.RLock, repr=False)

    @property
    def hidden_dir(self) -> Path:
        return hidden_root() / self.id

    def has_hidden(self) -> bool:
        return (self.hidden_dir / "tests.py").is_file()

    def _cached(self, key, make):
        with self._lock:
            if key not in self._cache:
                self._cache[key] = make()
            return self._cache[key]

    def examples(self) -> list[Case]:
        """Public example cases (fixed inputs, literal expected values)."""
        path = self.public_dir / "examples.py"
        if not path.is_file():
            return []
        return self._cached(("examples",), lambda: _build_cases(
            path, f"_lab_examples_{self.id.replace('-', '_')}", 0, True))

    def hidden_cases(self, seed: int, cache: bool = True) -> list[Case]:
        if not self.has_hidden():
            raise FileNotFoundError(
                f"hidden tests for {self.id!r} not found in {self.hidden_dir} (set LAB_HIDDEN_DIR)")
        def make() -> list[Case]:
            cases = _build_cases(self.hidden_dir / "tests.py",
                                 f"_lab_hidden_{self.id.replace('-', '_')}", seed, False)
            _refuse_unregistered(self, {n: c.name for c in cases for n in mistakes.named_by(c.steps)},
                                 "test")
            return cases

        return self._cached(("hidden", seed), make) if cache else make()

    def variant_values(self, learner_id: str | None) -> variants.Values | None:
        """The learner's own numbers (exercises/<id>/variant.py), or None: no variants, or no
        learner (the lesson's numbers)."""
        return variants.values_for(self.id, self.public_dir, learner_id)

    def reference_source(self) -> str:
        return (self.hidden_dir / "reference.py").read_text(encoding="utf-8")

    def mistakes(self) -> list[Mistake]:
        """The exercise's registered mistakes with their mutants (grader/mistakes.py): a file
        in ``mistakes/``, or the reference with the entry's named ``edit``."""
        def load() -> list[Mistake]:
            folder = self.hidden_dir / "mistakes"
            files = {p.stem for p in folder.glob("*.py")} if folder.is_dir() else set()
            _refuse_unregistered(self, {n: f"mistakes/{n}.py" for n in files}, "mutant")
            reference = self.reference_source()
            return [Mistake(name, entry.message, (folder / f"{name}.py").read_text(encoding="utf-8")
                            if name in files else mistakes.mutant_source(entry, reference))
                    for name, entry in mistakes.own(self).items() if name in files or entry.edit]

        return self._cached(("mistakes",), load)

    def diagnoser(self):
        """``diagnose(case, records) -> mistake | None`` from ``hidden/<id>/diagnose.py``, or None."""
        def load():
            path = self.hidden_dir / "diagnose.py"
            if not path.is_file():
                return None
            _refuse_unregistered(self, {n: "diagnose.py" for n in mistakes.diagnoser_names(path)},
                                 "diagnoser")
            return _load_module(path, f"_lab_diagnose_{self.id.replace('-', '_')}").diagnose

        return self._cached(("diagnose",), load)


def verifier(name: str):
    """The function ``name`` ("<exercise id>/<function>") of that exercise's
    ``hidden/<id>/verify.py`` (its ``VERIFY`` table): a "verify" check's judge."""
    exercise_id, _, fn = name.partition("/")
    ex = get(exercise_id)

    def load():
        path = ex.hidden_dir / "verify.py"
        if not path.is_file():
            return {}
        return dict(_load_module(path, f"_lab_verify_{ex.id.replace('-', '_')}").VERIFY)

    table = ex._cached(("verify",), load)
    if fn not in table:
        raise KeyError(f"{ex.id}: hidden/{ex.id}/verify.py has no verifier {fn!r}")
    return table[fn]


def _refuse_unregistered(ex: Exercise, names: dict[str, str], what: str) -> None:
    """Loading refuses a test, mutant or diagnoser that names a mistake nobody registered."""
    unknown = sorted(set(names) - set(mistakes.registry(ex)))
    if unknown:
        raise ValueError(f"{ex.id}: {what} names unregistered mistakes "
                         f"{[(n, names[n]) for n in unknown]} (register them in mistakes.json or "
                         "grader/contract_mistakes.json)")


def _load_exercise(folder: Path) -> Exercise:
    meta = json.loads((folder / "exercise.json").read_text(encoding="utf-8"))
    if meta.get("id") != folder.name:
        raise ValueError(f"{folder}/exercise.json: id {meta.get('id')!r} differs from the folder")
    statement = {lang: (folder / f"statement.{lang}.md").read_text(encoding="utf-8")
                 for lang in ("en", "zh")}
    return Exercise(id=meta["id"], number=int(meta.get("number", 99)), title=meta["title"],
                    limits=JobLimits.from_dict(meta.get("limits")), statement=statement,
                    starter=(folder / "starter.py").read_text(encoding="utf-8"), public_dir=folder)


_REGISTRY: dict[str, Exercise] = {}
_REGISTRY_LOCK = threading.Lock()


def all_exercises() -> dict[str, Exercise]:
    """Every exercise folder with an exercise.json, ordered by number."""
    with _REGISTRY_LOCK:
        if not _REGISTRY:
            found = [_load_exercise(d) for d in sorted(EXERCISES_DIR.iterdir())
                     if (d / "exercise.json").is_file()]
            for ex in sorted(found, key=lambda e: (e.number, e.id)):
                _REGISTRY[ex.id] = ex
        return dict(_REGISTRY)


def get(exercise_id: str) -> Exercise:
    exercises = all_exercises()
    if exercise_id not in exercises:
        raise UnknownExercise(exercise_id)
    return exercises[exercise_id]
