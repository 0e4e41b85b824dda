"""Issue 28: every ``LAB_*`` variable the product reads is declared once, in a settings module,
with a default and one line of documentation, and the README's Settings tables are the ones
written from those declarations (eight variables were documented nowhere, sixteen by the next
count; 18 were read at 24 sites outside any settings object)."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PRODUCT = ("app.py", "transformer_lab", "grader", "gradebook", "webapp")
NAME = re.compile(r"^LAB_[A-Z0-9_]*[A-Z0-9]$")
ROW = re.compile(r"^\| `(LAB_[A-Z0-9_]+)` \| ([^|]+) \| ([^|]+) \| ([^|]+) \|$", re.M)
# The only product modules that read (or, for the processes they start, write) a LAB_* variable.
SETTINGS_MODULES = ("transformer_lab/settings.py", "grader/paths.py", "gradebook/settings.py",
                    "webapp/settings.py", "webapp/serving/settings.py")


def product_files() -> list[Path]:
    out = []
    for top in PRODUCT:
        path = REPO / top
        out += [path] if path.is_file() else sorted(path.rglob("*.py"))
    return out


def variables_read() -> dict[str, str]:
    """Each variable named by a string constant in product code, with one file that names it."""
    found: dict[str, str] = {}
    for file in product_files():
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and NAME.match(node.value):
                found.setdefault(node.value, str(file.relative_to(REPO)))
    return found


def documented() -> dict[str, tuple[str, str]]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("## Settings", 1)[1].split("\n## ", 1)[0]
    return {m[1]: (m[2].strip(), m[4].strip()) for m in ROW.finditer(section)}


def env_accesses(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, variable) for each read or write of a LAB_* variable: ``os.environ[...]``,
    ``<anything>.get(...)``, ``.setdefault``/``.pop``, ``getenv(...)``, with the name written
    out or held in a module-level constant (``PASSWORD_ENV = "LAB_..."``)."""
    consts = {t.id: n.value.value for n in ast.walk(tree) if isinstance(n, ast.Assign)
              and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)
              for t in n.targets if isinstance(t, ast.Name)}

    def lab(node: ast.AST | None) -> str | None:
        value = node.value if isinstance(node, ast.Constant) else \
            consts.get(node.id) if isinstance(node, ast.Name) else None
        return value if isinstance(value, str) and NAME.match(value) else None

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) \
                and node.value.attr == "environ" and (name := lab(node.slice)):
            found.append((node.lineno, name))
        elif isinstance(node, ast.Call) and node.args and (name := lab(node.args[0])):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else \
                func.id if isinstance(func, ast.Name) else ""
            if called in ("get", "getenv", "setdefault", "pop", "putenv", "unsetenv"):
                found.append((node.lineno, name))
    return found


def reads_outside_settings() -> dict[str, list[str]]:
    """Variable -> the ``file:line`` sites outside the settings modules that read or write it."""
    found: dict[str, list[str]] = {}
    for file in product_files():
        rel = str(file.relative_to(REPO))
        if rel in SETTINGS_MODULES:
            continue
        for line, name in env_accesses(ast.parse(file.read_text(encoding="utf-8"))):
            found.setdefault(name, []).append(f"{rel}:{line}")
    return found


def declared() -> list:
    sys.path.insert(0, str(REPO))
    from webapp.settings import AppSettings

    return [var for _, var in AppSettings.variables()]


def test_every_variable_read_is_in_the_settings_table():
    read, table = variables_read(), documented()
    assert len(read) >= 40, "the scan found too few variables: has the layout moved?"
    missing = {name: where for name, where in read.items() if name not in table}
    assert not missing, f"LAB_* variables read but not in README's Settings table: {missing}"


def test_every_row_has_a_default_and_a_meaning_and_names_a_real_variable():
    read, table = variables_read(), documented()
    assert all(default and meaning for default, meaning in table.values())
    stale = sorted(set(table) - set(read))
    assert not stale, f"documented but read nowhere (remove the row): {stale}"


def test_only_the_settings_modules_touch_a_lab_variable_in_the_environment():
    assert reads_outside_settings() == {}, "read it from its package's settings class instead"


def test_the_scan_sees_reads_in_every_form_it_looks_for():
    code = ('import os\nENV = "LAB_B"\nos.environ.get("LAB_A")\nos.environ[ENV]\n'
            'os.getenv("LAB_C", "")\n(env or os.environ).get("LAB_D")\nos.environ["LAB_E"] = "1"\n'
            'os.environ.get("HOME")\nmessage = "set LAB_F"\n')
    assert [name for _, name in env_accesses(ast.parse(code))] == \
        ["LAB_A", "LAB_B", "LAB_C", "LAB_D", "LAB_E"]


def test_every_declared_variable_is_named_documented_and_has_a_default_once():
    variables = declared()
    names = [v.name for v in variables]
    assert len(names) >= 50 and len(set(names)) == len(names), "a variable declared twice"
    for v in variables:
        assert NAME.match(v.name), v.name
        assert v.doc.strip() and "\n" not in v.doc and "|" not in v.doc, v.name
        assert v.shown.strip() and v.parse.accepts.strip(), v.name
    assert set(names) == set(documented()), "rerun python scripts/settings_table.py --write"
    assert set(names) == set(variables_read()), "a LAB_* name in product code that is not declared"


def test_the_readme_tables_are_the_ones_written_from_the_declarations():
    sys.path.insert(0, str(REPO / "scripts"))
    from settings_table import README, tables, with_tables

    text = README.read_text(encoding="utf-8")
    assert with_tables(text, tables()) == text, "rerun python scripts/settings_table.py --write"
