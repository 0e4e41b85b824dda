"""The library's import structure: no gradio anywhere below the app, no import cycles."""

from __future__ import annotations

import ast

from import_graph import ROOT, _base, find_cycle, gradio_after_importing, graph, modules


def test_no_library_module_loads_gradio():
    names = sorted(modules(ROOT, "transformer_lab"))
    assert "transformer_lab.experiments" in names and "transformer_lab.figures" in names
    assert gradio_after_importing(names) == []


def test_the_cycle_finder_finds_a_hidden_cycle():
    # The cli <-> bench cycle this test was written against, hidden in function bodies.
    assert find_cycle({"cli": {"bench"}, "bench": {"cli"}}) == ["bench", "cli", "bench"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_relative_imports_resolve_like_python():
    node = ast.parse("from ..toy import ToyTask").body[0]
    assert _base("transformer_lab.tasks.corpus.grammar", False, node) == "transformer_lab.tasks.toy"
    node = ast.parse("from . import toy").body[0]
    assert _base("transformer_lab.tasks", True, node) == "transformer_lab.tasks"


def test_no_import_cycles_in_the_library():
    edges = graph(ROOT, "transformer_lab")
    assert "transformer_lab.experiments" in edges["transformer_lab.bench"]
    assert "transformer_lab.tasks.toy" in edges["transformer_lab.tasks"]  # `from . import toy`
    assert find_cycle(edges) is None, f"import cycle: {' -> '.join(find_cycle(edges))}"
