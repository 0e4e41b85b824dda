"""The grader's import structure: no gradio anywhere, no import cycles (imports inside functions
count: a cycle hidden in a function body is still a cycle)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GRADEBOOK = "grader.gradebook"
# Known gradebook cycles (issue 10), each through an import inside a function: store.py opens
# its backends, which subclass its Gradebook, and ratelimit.py opens the PostgreSQL limiter,
# which subclasses its RateLimiter. Breaking them needs the opening functions in modules of
# their own; until then no other cycle may join them.
KNOWN_GRADEBOOK_EDGES = {
    ("grader.gradebook.store", "grader.gradebook.sqlite_store"),
    ("grader.gradebook.store", "grader.gradebook.postgres_store"),
    ("grader.gradebook.ratelimit", "grader.gradebook.pg_ratelimit"),
}


def modules(root: Path, package: str) -> dict[str, Path]:
    """Every module of ``package`` under ``root``, dotted, without ``__main__``."""
    found = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__main__":
            continue
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imported(module: str, path: Path, known: set[str]) -> set[str]:
    """The ``known`` modules a module imports anywhere in its source, function bodies included.
    ``from pkg import sub`` imports the submodule ``pkg.sub``; ``from pkg import name`` imports
    ``pkg`` itself (its ``__init__``)."""
    is_package = path.name == "__init__.py"
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                here = module.split(".") if is_package else module.split(".")[:-1]
                base = ".".join(here[: len(here) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                out.add(sub if sub in known else base)
    return out & known


def graph(root: Path, package: str) -> dict[str, set[str]]:
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


def test_no_grader_or_library_module_loads_gradio():
    names = sorted(modules(ROOT, "grader")) + sorted(modules(ROOT, "transformer_lab"))
    assert "grader.grading" in names and "grader.gradebook.store" in names
    code = ("import importlib, json, sys\n"
            f"for name in {names!r}:\n"
            "    importlib.import_module(name)\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'gradio')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


def test_a_cycle_hidden_in_a_function_body_is_found(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg import b\n")
    (pkg / "b.py").write_text("def late():\n    from .a import thing\n    return thing\n")
    (pkg / "c.py").write_text("import pkg.a\n")
    edges = graph(tmp_path, "pkg")
    assert edges["pkg.b"] == {"pkg.a"} and edges["pkg.c"] == {"pkg.a"}
    assert find_cycle(edges) == ["pkg.a", "pkg.b", "pkg.a"]
    (pkg / "b.py").write_text("def late():\n    return 1\n")
    assert find_cycle(graph(tmp_path, "pkg")) is None


def test_no_import_cycles_among_grader_modules():
    edges = {m: t for m, t in graph(ROOT, "grader").items() if not m.startswith(GRADEBOOK)}
    assert "grader.bundle" in edges["grader.grading"]  # the graph sees real imports
    assert find_cycle(edges) is None, " -> ".join(find_cycle(edges))


def test_the_gradebook_has_no_cycles_but_the_known_ones():
    edges = {m: {t for t in ts if (m, t) not in KNOWN_GRADEBOOK_EDGES}
             for m, ts in graph(ROOT, "grader").items() if m.startswith(GRADEBOOK)}
    assert "grader.gradebook.limits" in edges["grader.gradebook.identity"]
    assert find_cycle(edges) is None, " -> ".join(find_cycle(edges))
