"""Issue 28: every ``LAB_*`` variable the product reads is documented, with a default, in the
README's Settings table (eight were documented nowhere, sixteen by the next count)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PRODUCT = ("app.py", "transformer_lab", "grader", "gradebook", "webapp")
NAME = re.compile(r"^LAB_[A-Z0-9_]*[A-Z0-9]$")
ROW = re.compile(r"^\| `(LAB_[A-Z0-9_]+)` \| ([^|]+) \| ([^|]+) \|$", re.M)


def variables_read() -> dict[str, str]:
    """Each variable named by a string constant in product code, with one file that names it."""
    found: dict[str, str] = {}
    for top in PRODUCT:
        path = REPO / top
        for file in [path] if path.is_file() else sorted(path.rglob("*.py")):
            for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                        and NAME.match(node.value):
                    found.setdefault(node.value, str(file.relative_to(REPO)))
    return found


def documented() -> dict[str, tuple[str, str]]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("## Settings", 1)[1].split("\n## ", 1)[0]
    return {m[1]: (m[2].strip(), m[3].strip()) for m in ROW.finditer(section)}


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
