"""The library's import structure: no gradio anywhere below the app, no import cycles."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = ROOT / "transformer_lab"


def module_names(package: str) -> list[str]:
    """Every module of ``package`` (a folder under the repository root), dotted."""
    names = []
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__main__":
            continue  # running it is the program, not an import
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def test_no_library_or_grader_module_loads_gradio():
    modules = module_names("transformer_lab") + module_names("grader")
    assert "transformer_lab.experiments" in modules and "grader.grading" in modules
    code = ("import importlib, json, sys\n"
            f"for name in {modules!r}:\n"
            "    importlib.import_module(name)\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'gradio')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


def resolve(module: str, is_package: bool, node: ast.ImportFrom) -> list[str]:
    """The absolute module names a ``from ... import ...`` statement in ``module`` loads."""
    if node.level == 0:
        base = node.module or ""
    else:
        parts = module.split(".")
        here = parts if is_package else parts[:-1]
        base = ".".join(here[: len(here) - node.level + 1] + ([node.module] if node.module else []))
    # `from . import x` may name a submodule; `from .m import f` names module m.
    return [base] + [f"{base}.{alias.name}" for alias in node.names]


def import_graph(package: str) -> dict[str, set[str]]:
    """module → the package's modules it imports anywhere (functions included), from the AST."""
    names = set(module_names(package))
    graph: dict[str, set[str]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__main__":
            continue
        is_package = parts[-1] == "__init__"
        module = ".".join(parts[:-1] if is_package else parts)
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                targets.update(resolve(module, is_package, node))
        graph[module] = {t for t in targets if t in names and t != module}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as [a, b, ..., a], or None (depth-first search, three colours)."""
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start)):
            return found
    return None


def test_the_cycle_finder_finds_a_hidden_cycle():
    # The cli <-> bench cycle this test was written against, hidden in function bodies.
    assert find_cycle({"cli": {"bench"}, "bench": {"cli"}}) == ["bench", "cli", "bench"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_relative_imports_resolve_like_python():
    node = ast.parse("from ..toy import ToyTask").body[0]
    assert resolve("transformer_lab.tasks.corpus.grammar", False, node)[0] == "transformer_lab.tasks.toy"
    node = ast.parse("from . import toy").body[0]
    assert "transformer_lab.tasks.toy" in resolve("transformer_lab.tasks", True, node)


def test_no_import_cycles_in_the_library():
    graph = import_graph("transformer_lab")
    assert "transformer_lab.experiments" in graph["transformer_lab.bench"]
    assert find_cycle(graph) is None, f"import cycle: {' -> '.join(find_cycle(graph))}"
