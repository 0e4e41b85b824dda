"""The house's figures that issue 28 tracks, measured from the code as it is now.

    python scripts/house_numbers.py

Prints: product lines per package; lines of webapp/serving/; how often ``heads`` is written
between the Train page and the model; ``LAB_*`` variables read outside the settings modules
(those tests/test_settings_documented.py lists) and those the README's Settings tables lack;
module-level singletons (private module names bound to an empty list, dict or None that code
fills later); the longest functions. Static reading (ast and text), nothing of the app is
started.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("app.py", "transformer_lab", "grader", "gradebook", "webapp", "exercises", "hidden")
PRODUCT = ("app.py", "transformer_lab", "grader", "gradebook", "webapp")
TRAIN_PATH = ("webapp/train/page.py", "webapp/train/api.py",
              "webapp/train/train_config.py", "transformer_lab/experiments.py")
SINGLETON = re.compile(r"^(_[A-Z][A-Z0-9_]*)\s*(:[^=]+)?=\s*(\[\]|\{\}|None)\s*(#.*)?$")


def files(top: str) -> list[Path]:
    path = ROOT / top
    if not path.exists():
        return []
    return [path] if path.is_file() else sorted(p for p in path.rglob("*.py")
                                                 if ".cache" not in p.parts)


def lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def heads_lines() -> dict[str, int]:
    """Code lines (comments and docstrings aside) that write ``heads`` in each Train-path file."""
    out = {}
    for rel in TRAIN_PATH:
        path = ROOT / rel
        if not path.exists():
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {n.body[0].value.lineno for n in ast.walk(tree)
                if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
                and n.body and isinstance(n.body[0], ast.Expr)
                and isinstance(n.body[0].value, ast.Constant)}
        count = 0
        for no, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = text.split("#", 1)[0]
            if no not in docs and re.search(r"\bheads\b", code):
                count += 1
        out[rel] = count
    return out


def env_reads_outside_settings() -> dict[str, list[str]]:
    """Variable -> files that read or write it in the environment outside the settings modules
    (the AST scan of tests/test_settings_documented.py: literal names and module constants)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from test_settings_documented import reads_outside_settings

    return {name: [site.rsplit(":", 1)[0] for site in sites]
            for name, sites in reads_outside_settings().items()}


def undocumented() -> list[str]:
    sys.path.insert(0, str(ROOT / "tests"))
    from test_settings_documented import documented, variables_read

    return sorted(set(variables_read()) - set(documented()))


def singletons() -> list[str]:
    out = []
    for top in PRODUCT:
        for path in files(top):
            for no, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if m := SINGLETON.match(text):
                    out.append(f"{path.relative_to(ROOT)}:{no} {m.group(1)}")
    return out


def longest_functions(n: int = 5) -> list[tuple[int, str]]:
    found = []
    for top in PRODUCT:
        for path in files(top):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    size = node.end_lineno - node.lineno + 1
                    found.append((size, f"{path.relative_to(ROOT)}:{node.lineno} {node.name}"))
    return sorted(found, reverse=True)[:n]


def main() -> int:
    print("product lines per package:")
    for top in PACKAGES:
        print(f"  {top:18} {sum(lines(p) for p in files(top)):6}  ({len(files(top))} files)")
    serving = files("webapp/serving")
    print(f"webapp/serving/: {sum(lines(p) for p in serving)} lines in {len(serving)} files")
    heads = heads_lines()
    each = ", ".join(f"{Path(k).name} {v}" for k, v in heads.items())
    print(f"'heads' written between the Train page and the model: {sum(heads.values())} lines ({each})")
    reads = env_reads_outside_settings()
    print(f"LAB_* variables read outside the settings modules: {len(reads)} "
          f"({sum(len(v) for v in reads.values())} sites in {len({f for v in reads.values() for f in v})} files)")
    print(f"LAB_* variables read but undocumented: {len(undocumented())}")
    single = singletons()
    print(f"module-level singletons and registries: {len(single)}")
    for s in single:
        print(f"  {s}")
    print("longest functions:")
    for size, where in longest_functions():
        print(f"  {size:4} lines  {where}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
