"""Issue 26, item 1: a learner on a laptop without a GPU gets a one-line CPU install in the
README, and it pins the same torch as the default command (which stays right on a GPU box)."""

from __future__ import annotations

import re
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent


def _torch(path: Path) -> Requirement:
    lines = [ln.split("#")[0].strip() for ln in path.read_text().splitlines()]
    (found,) = [Requirement(ln) for ln in lines if ln and not ln.startswith("-") and ln.startswith("torch")]
    return found


def test_the_readme_gives_the_cpu_install_and_the_default_one():
    readme = (ROOT / "README.md").read_text()
    assert "pip install -r requirements.txt && python app.py" in readme
    assert "pip install -r pre-requirements.txt -r requirements.txt && python app.py" in readme


def test_the_cpu_build_satisfies_the_default_pin():
    cpu, default = _torch(ROOT / "pre-requirements.txt"), _torch(ROOT / "requirements.txt")
    (pinned,) = list(cpu.specifier)
    assert pinned.version.endswith("+cpu")
    assert default.specifier.contains(pinned.version)  # one resolver run takes the CPU build
    assert re.search(r"--extra-index-url https://download.pytorch.org/whl/cpu",
                     (ROOT / "pre-requirements.txt").read_text())
