"""The README's Settings tables, written from the declarations (webapp.settings.AppSettings).

    python scripts/settings_table.py          # print them
    python scripts/settings_table.py --write  # rewrite them in README.md, between the markers

A variable is documented where it is declared (transformer_lab/settings.py describes the form);
tests/test_settings_documented.py fails when README.md differs from what this prints.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BEGIN = "<!-- settings tables: written by `python scripts/settings_table.py --write` -->"
END = "<!-- end of the settings tables -->"


def tables() -> str:
    """One table per settings class, in AppSettings' order, each headed by where it lives."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from webapp.settings import AppSettings

    out = []
    for part in AppSettings.PARTS:
        where = Path(sys.modules[part.__module__].__file__).resolve().relative_to(ROOT)
        summary = " ".join((part.__doc__ or "").strip().split("\n\n")[0].split())
        out += [f"`{part.__name__}` in `{where}`: {summary}", "",
                "| variable | default | accepts | what it sets |", "|---|---|---|---|"]
        out += [f"| `{v.name}` | {v.shown} | {v.parse.accepts} | {v.doc} |"
                for v in part.variables().values()]
        out.append("")
    return "\n".join(out)


def with_tables(readme: str, generated: str) -> str:
    """``readme`` with the text between the markers replaced by ``generated``."""
    head, rest = readme.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n{generated}{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite the tables in README.md")
    args = parser.parse_args(argv)
    generated = tables()
    if args.write:
        README.write_text(with_tables(README.read_text(encoding="utf-8"), generated),
                          encoding="utf-8")
    else:
        print(generated, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
