"""The grader's import structure: no gradio anywhere, no import cycles (imports inside functions
count: a cycle hidden in a function body is still a cycle). The graph is read by tests/import_graph.py."""

from __future__ import annotations

from import_graph import ROOT, find_cycle, gradio_after_importing, graph, modules


def test_no_grader_module_loads_gradio():
    names = sorted(modules(ROOT, "grader")) + sorted(modules(ROOT, "gradebook"))
    assert "grader.grading" in names and "gradebook.store" in names
    assert gradio_after_importing(names) == []


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


def test_no_import_cycles_in_the_grader_or_its_gradebook():
    edges = {**graph(ROOT, "grader"), **graph(ROOT, "gradebook")}
    assert "grader.bundle" in edges["grader.grading"]  # the graph sees real imports
    # the backends open lazily (inside functions); the edges are there all the same
    assert "gradebook.postgres_store" in edges["gradebook.backends"]
    assert find_cycle(edges) is None, " -> ".join(find_cycle(edges))


def test_the_grader_is_in_rooms_and_the_sandbox_room_reaches_no_other():
    """grader/sandbox/ (pool, worker, runner, confinement, codec, probes, fixtures, jobs) runs
    learner code and imports nothing from the grader's other rooms; grader/feedback/ (judge,
    compare, observe, explain...) never reaches into the sandbox's process side."""
    edges = graph(ROOT, "grader")
    sandbox = {m for m in edges if m.startswith("grader.sandbox.")}
    feedback = {m for m in edges if m.startswith("grader.feedback.")}
    assert {"grader.sandbox.pool", "grader.sandbox.worker", "grader.sandbox.runner"} <= sandbox
    assert {"grader.feedback.judge", "grader.feedback.explain"} <= feedback
    # grader.paths: where files live (the repository to protect), no room's
    outside = {m: sorted(n for n in edges[m] if not n.startswith("grader.sandbox") and n != "grader.paths")
               for m in sandbox}
    assert {m: n for m, n in outside.items() if n} == {}
    process_side = {"grader.sandbox.pool", "grader.sandbox.worker", "grader.sandbox.confine",
                    "grader.sandbox.seccomp"}
    assert {m: sorted(edges[m] & process_side) for m in feedback if edges[m] & process_side} == {}


def test_the_command_line_goes_through_the_api_as_the_web_app_does():
    """Issue 24: `python -m grader` used grader.exercises, grader.submission, grader.selfcheck
    and the sandbox's pool directly; it reaches the grader through grader.api (its bench and
    the gradebook's own command line aside, which it only hands over to)."""
    edges = graph(ROOT, "grader")
    assert "grader.api" in edges["grader.cli"]
    assert edges["grader.cli"] - {"grader.api", "grader.bench", "gradebook.cli"} == set()
