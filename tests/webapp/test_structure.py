"""The web app's layers (issue 10): pages build the UI; services, views, compute and i18n are
plain Python that never reach gradio or a page; no import cycles anywhere in webapp."""

from __future__ import annotations

from import_graph import ROOT, find_cycle, gradio_after_importing, graph, imports, modules

# Pages are the modules that build UI with gradio: the pages layer, and a room's page and API.
PAGES = ("webapp.pages", "webapp.train.page", "webapp.train.events", "webapp.train.api")
# Everything else is plain: the layers, and a room's other parts (issue 28: the Train room).
PLAIN = ("webapp.services", "webapp.views", "webapp.compute", "webapp.i18n",
         "webapp.train.training", "webapp.train.train_queue", "webapp.train.train_config",
         "webapp.train.sessions", "webapp.train.view", "webapp.settings", "webapp.lab")


def test_no_import_cycles_in_the_web_app():
    edges = graph(ROOT, "webapp")
    assert "webapp.serving.wing" in edges["webapp.services.submissions"]  # sees real edges
    assert find_cycle(edges) is None, " -> ".join(find_cycle(edges))


def test_plain_layers_import_neither_gradio_nor_a_page():
    mods = modules(ROOT, "webapp")
    plain = {m: p for m, p in mods.items() if m.startswith(PLAIN)}
    assert "webapp.services.submissions" in plain and "webapp.views.report_view" in plain
    assert "webapp.train.train_queue" in plain and "webapp.train.page" not in plain
    wrong = {m: sorted(n for n in imports(m, p) if n.split(".")[0] == "gradio"
                       or n.startswith(PAGES))
             for m, p in plain.items()}
    assert {m: names for m, names in wrong.items() if names} == {}


def test_every_module_is_a_page_plain_or_the_serving_wing():
    """A new module (a room's part) is placed on purpose: a page may import gradio, a plain
    part may not, the serving wing has its own rules below."""
    mods = modules(ROOT, "webapp")
    unplaced = [m for m in mods if not m.startswith((*PAGES, *PLAIN, "webapp.serving"))
                and mods[m].name != "__init__.py"]
    assert unplaced == []


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


# --- the serving wing (issue 17) ----------------------------------------------------------------

# Playground tabs that neither train nor grade: they must not depend on the serving wing.
QUIET_TABS = ("basics", "pooling", "multihead", "positional", "complexity")
PATCH_FILE = "webapp.serving.gradio_patch"


def _app_modules() -> dict[str, object]:
    mods = dict(modules(ROOT, "webapp"))
    mods["app"] = ROOT / "app.py"
    return mods


def test_the_quiet_playground_tabs_import_nothing_from_the_serving_wing():
    mods = modules(ROOT, "webapp")
    edges = graph(ROOT, "webapp")
    for tab in QUIET_TABS:
        name = f"webapp.pages.{tab}"
        assert name in mods, name
        direct = {n for n in imports(name, mods[name]) if n.startswith("webapp.serving")}
        assert direct == set(), (name, direct)
        # ... nor through the page helpers they share (common, viewport)
        for helper in edges[name]:
            if helper.startswith("webapp.pages."):
                assert not any(n.startswith("webapp.serving") for n in edges[helper]), helper


def _private_uses(path) -> list[str]:
    """Imports of gradio submodules or private names, and ``x._name`` on anything but self/cls."""
    import ast

    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("gradio."):
            found.append(f"from {node.module} import ...")
        elif isinstance(node, ast.ImportFrom) and node.module == "gradio":
            found += [f"gradio.{a.name}" for a in node.names if a.name.startswith("_")]
        elif isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.startswith("gradio.")]
        elif isinstance(node, ast.Attribute) and node.attr.startswith("_") \
                and not node.attr.startswith("__") and not (
                    isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
            found.append(f"._{node.attr[1:]}")
    return found


def test_only_the_patch_file_touches_gradio_internals():
    mods = _app_modules()
    assert PATCH_FILE in mods and _private_uses(mods[PATCH_FILE])  # it does, and is found
    offenders = {}
    for name, path in mods.items():
        if name == PATCH_FILE or not (name.startswith(PAGES) or name == "app"):
            continue
        if uses := _private_uses(path):
            offenders[name] = uses
    assert offenders == {}
    # Nowhere else in webapp imports gradio submodules either.
    others = {n: [u for u in _private_uses(p) if "gradio" in u] for n, p in mods.items()
              if n != PATCH_FILE}
    assert {n: u for n, u in others.items() if u} == {}


def test_the_patched_gradio_internals_are_still_there():
    """Fails loudly, naming the patch, when a Gradio upgrade changes what gradio_patch patches."""
    from webapp.serving import gradio_patch

    assert gradio_patch.check_internals() == [], gradio_patch.check_internals()
    gradio_patch.require_internals()


def test_the_check_names_a_patch_whose_internals_moved(monkeypatch):
    from gradio import state_holder

    from webapp.serving import gradio_patch

    monkeypatch.delattr(state_holder.StateHolder, "delete_state")
    broken = gradio_patch.check_internals()
    assert broken == ["StateHolder (release on unload)"]
    import pytest

    with pytest.raises(gradio_patch.GradioInternalsChanged, match="release on unload"):
        gradio_patch.require_internals()


# --- the grader's one door (issue 24) -------------------------------------------------------------

def test_the_web_app_reaches_the_grader_only_through_its_api():
    """Nothing in webapp/ or app.py imports a grader module but grader.api (the gradebook is
    its own package, gradebook/)."""
    mods = _app_modules()
    wrong = {m: sorted(n for n in imports(m, p) if n.split(".")[0] == "grader"
                       and n not in ("grader", "grader.api") and not n.startswith("grader.api."))
             for m, p in mods.items()}
    assert {m: names for m, names in wrong.items() if names} == {}
    assert any("grader.api" in imports(m, p) for m, p in mods.items())  # the scan sees imports


# --- the one admission desk (issue 28) ------------------------------------------------------------

def _calls(path) -> list[tuple[str, str, int]]:
    """(receiver's last name, method, line) of every ``x.y.method(...)``/``y.method(...)`` call."""
    import ast

    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            recv = node.func.value
            name = recv.attr if isinstance(recv, ast.Attribute) else getattr(recv, "id", "")
            found.append((name, node.func.attr, node.lineno))
    return found


def test_every_door_goes_through_the_admission_desk():
    """Submit, practice runs, Train, both APIs and a regrade take their places through
    ``Serving.admit(kind, client)`` (webapp.serving.wing): outside the wing nothing takes a place
    in a line or counts a limit itself, and no page touches a ticket (the sequence limits ->
    line -> refund -> wait -> pushed out was written three times, once inside a page)."""
    mods = _app_modules()
    wrong = []
    for name, path in mods.items():
        if name.startswith("webapp.serving"):
            continue
        for recv, method, line in _calls(path):
            if (method == "admit" and recv in ("grading", "training", "limits", "practice")) \
                    or method in ("take", "wait_turn") or (method == "give_back" and recv != "ticket"):
                wrong.append(f"{name}:{line} {recv}.{method}()")
        if name.startswith(PAGES) or name == "app":
            touched = {n for n in imports(name, path) if n.startswith("webapp.serving.turns")}
            if touched - {"webapp.serving.turns", "webapp.serving.turns.grading_message",
                          "webapp.serving.turns.queue_message"}:
                wrong.append(f"{name}: imports {sorted(touched)}")
            wrong += [f"{name}:{line} {recv}.{method}()" for recv, method, line in _calls(path)
                      if "ticket" in recv.lower()]
    assert wrong == []
    desk = [m for m, p in mods.items() if any(meth == "admit" and recv == "serving"
                                              for recv, meth, _ in _calls(p))]
    # the scan sees the doors: submissions (Submit, practice), train_queue (Train), regrade
    assert {"webapp.services.submissions", "webapp.train.train_queue",
            "webapp.services.regrade"} <= set(desk), desk
