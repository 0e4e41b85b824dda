"""Per-learner variants: an exercise may give each learner their own numbers.

An exercise with a public ``exercises/<id>/variant.py`` draws, for each learner, values for
some module-level names of its starter and reference (exercise 1: the ``Q`` and ``V`` of Part
A). The draw is seeded from the exercise and the learner's stable id, so one learner gets the
same numbers on every attempt, reload and worker, and two learners get different ones. The
learner sees theirs under the statement and in their starter; grading renders the same values
into the reference and every mutant, so the expected answers are the learner's own and the
lesson's worked example, copied, earns none of those points.

``variant.py`` defines::

    NAMES = ("Q", "V")                        # top-level names the values replace
    def draw(rng: random.Random) -> dict      # name -> nested list of numbers
    def show(values: dict) -> str             # the numbers as the learner reads them (code)

Nothing here imports torch: the page shows the numbers without it. With no learner (the CLI
and the tests by default) nothing is drawn and the exercise keeps the lesson's numbers.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import random
import threading
from pathlib import Path
from types import ModuleType
from typing import Any

Values = dict[str, Any]
_MODULES: dict[Path, tuple[int, ModuleType | None]] = {}
_LOCK = threading.Lock()
MARKER = "{{your-numbers}}"  # where a statement shows the learner's own numbers


def _module(folder: Path) -> ModuleType | None:
    path = folder / "variant.py"
    if not path.is_file():
        return None
    stamp = path.stat().st_mtime_ns
    with _LOCK:
        held = _MODULES.get(path)
        if held is None or held[0] != stamp:
            spec = importlib.util.spec_from_file_location(f"_lab_variant_{folder.name.replace('-', '_')}", path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            held = _MODULES[path] = (stamp, module)
        return held[1]


def has_variant(public_dir: Path) -> bool:
    """Whether the exercise in ``public_dir`` gives each learner their own numbers."""
    return _module(public_dir) is not None


def seed_for(exercise_id: str, learner_id: str) -> int:
    """The learner's seed for one exercise: stable, and unrelated between learners."""
    digest = hashlib.sha256(f"transformer-lab variant\x00{exercise_id}\x00{learner_id}".encode())
    return int.from_bytes(digest.digest()[:8], "big")


def values_for(exercise_id: str, public_dir: Path, learner_id: str | None) -> Values | None:
    """The learner's own values, or None (no variant, or no learner: the lesson's numbers)."""
    module = _module(public_dir)
    if module is None or not learner_id:
        return None
    values = module.draw(random.Random(seed_for(exercise_id, learner_id)))
    if set(values) != set(module.NAMES):
        raise ValueError(f"{exercise_id}/variant.py: draw() gave {sorted(values)}, not NAMES {module.NAMES}")
    return values


def show(public_dir: Path, values: Values) -> str:
    """The values as the exercise shows them to their learner (a code block's text)."""
    return _module(public_dir).show(values)


def _literal(value: Any, indent: int) -> str:
    """A tensor literal; a matrix one row per line (a phone shows a line's first 40 characters)."""
    if isinstance(value, list) and value and all(isinstance(row, list) for row in value):
        pad = " " * (indent + len("torch.tensor(["))
        return "torch.tensor([" + f",\n{pad}".join(repr(row) for row in value) + "])"
    return f"torch.tensor({value!r})"


def render(source: str, values: Values | None) -> str:
    """``source`` with each named top-level assignment (``Q = ...``) replaced by the learner's
    value; ValueError when a name is not assigned exactly once at the top level."""
    if not values:
        return source
    lines = source.splitlines(keepends=True)
    spans: dict[str, list[tuple[int, int]]] = {name: [] for name in values}
    for node in ast.parse(source).body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and node.targets[0].id in spans):
            spans[node.targets[0].id].append((node.lineno, node.end_lineno))
    bad = [name for name, found in spans.items() if len(found) != 1]
    if bad:
        raise ValueError(f"the names {bad} must each be assigned once at the top level")
    for name, [(first, last)] in sorted(spans.items(), key=lambda kv: -kv[1][0][0]):
        lines[first - 1:last] = [f"{name} = {_literal(values[name], len(name) + 3)}\n"]
    return "".join(lines)


def digest(values: Values | None) -> str:
    """A short key for a set of values (bundles built for them are kept under it)."""
    return "" if not values else hashlib.sha256(repr(sorted(values.items())).encode()).hexdigest()[:16]
