"""The web app's layers (issue 10): pages build the UI; services, views, compute and i18n are
plain Python that never reach gradio or a page; no import cycles anywhere in webapp."""

from __future__ import annotations

from import_graph import ROOT, find_cycle, gradio_after_importing, graph, imports, modules

PLAIN = ("webapp.services", "webapp.views", "webapp.compute", "webapp.i18n")


def test_no_import_cycles_in_the_web_app():
    edges = graph(ROOT, "webapp")
    assert "webapp.services.fairness" in edges["webapp.services.submissions"]  # sees real edges
    assert find_cycle(edges) is None, " -> ".join(find_cycle(edges))


def test_plain_layers_import_neither_gradio_nor_a_page():
    mods = modules(ROOT, "webapp")
    plain = {m: p for m, p in mods.items() if m.startswith(PLAIN)}
    assert "webapp.services.submissions" in plain and "webapp.views.report_view" in plain
    wrong = {m: sorted(n for n in imports(m, p) if n.split(".")[0] == "gradio"
                       or n.startswith("webapp.pages"))
             for m, p in plain.items()}
    assert {m: names for m, names in wrong.items() if names} == {}


def test_plain_layers_load_without_gradio_in_a_fresh_interpreter():
    names = sorted(m for m in modules(ROOT, "webapp") if m.startswith(PLAIN))
    assert gradio_after_importing(names) == []


def test_the_graph_finds_a_cycle_hidden_in_a_function_body(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg import b\n")
    (pkg / "b.py").write_text("def late():\n    from .a import thing\n    return thing\n")
    assert find_cycle(graph(tmp_path, "pkg")) == ["pkg.a", "pkg.b", "pkg.a"]
    (pkg / "b.py").write_text("import gradio\n")
    assert "gradio" in imports("pkg.b", pkg / "b.py") and find_cycle(graph(tmp_path, "pkg")) is None
