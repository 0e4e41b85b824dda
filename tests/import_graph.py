"""Import structure of our packages, read from source with ast (imports inside functions count:
a cycle or a gradio import hidden in a function body is still there). Used by the packages'
test_imports / test_structure tests."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def modules(root: Path, package: str) -> dict[str, Path]:
    """Every module of ``package`` under ``root``, dotted, without ``__main__``."""
    found = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__main__":
            continue
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _base(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module a ``from ... import`` statement in ``module`` reads from."""
    if not node.level:
        return node.module or ""
    here = module.split(".") if is_package else module.split(".")[:-1]
    return ".".join(here[: len(here) - node.level + 1] + ([node.module] if node.module else []))


def _statements(module: str, path: Path):
    """(base, names) per import statement anywhere in the source: ``import a.b`` gives
    ("a.b", []), ``from x import y, z`` gives (x resolved, ["y", "z"])."""
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, []
        elif isinstance(node, ast.ImportFrom):
            yield _base(module, is_package, node), [alias.name for alias in node.names]


def imports(module: str, path: Path) -> set[str]:
    """Every dotted name a module imports anywhere in its source. ``from pkg import x`` gives
    both ``pkg`` and ``pkg.x`` (x may be a submodule or a name; callers intersect with what
    they know)."""
    out: set[str] = set()
    for base, names in _statements(module, path):
        out.add(base)
        out.update(f"{base}.{name}" for name in names)
    return out


def imported(module: str, path: Path, known: set[str]) -> set[str]:
    """The ``known`` modules a module imports anywhere in its source, function bodies included.
    ``from pkg import sub`` imports the submodule ``pkg.sub``; ``from pkg import name`` imports
    ``pkg`` itself (its ``__init__``)."""
    out: set[str] = set()
    for base, names in _statements(module, path):
        out.update([base] if not names else
                   [f"{base}.{n}" if f"{base}.{n}" in known else base for n in names])
    return out & known


def gradio_after_importing(names: list[str]) -> list[str]:
    """The gradio modules loaded after importing ``names`` in a fresh interpreter."""
    code = ("import importlib, json, sys\n"
            f"for name in {sorted(names)!r}:\n"
            "    importlib.import_module(name)\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'gradio')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def graph(root: Path, package: str) -> dict[str, set[str]]:
    """module -> the modules of ``package`` it imports."""
    mods = modules(root, package)
    return {m: imported(m, p, set(mods)) - {m} for m, p in mods.items()}


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One cycle as [a, ..., a], or None (depth-first search with three colours)."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state and (found := visit(start)):
            return found
    return None
