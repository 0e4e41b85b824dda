"""`python -m grader check` as a teacher runs it: OK on a sound exercise (by id or by folder),
and a list of problems with exit code 1 when a mistake is not caught or a registry entry is
stale. CI runs the same check on every exercise (tests/exercises, the exercise_sound fixture)."""

import json
import os
import shutil
import subprocess
import sys

from grader.paths import REPO_ROOT, hidden_root


def _check(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader", "check", *args], cwd=REPO_ROOT,
                          capture_output=True, text=True, timeout=300, env={**os.environ, **(env or {})})


def test_a_sound_exercise_is_ok_by_id_or_by_folder():
    out = _check("causal-mask", "exercises/add-norm/")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "causal-mask: OK" in out.stdout and "add-norm: OK" in out.stdout


def test_an_unknown_exercise_is_an_error_not_a_crash():
    out = _check("no-such-exercise")
    assert out.returncode == 2 and "no exercise" in out.stderr


def test_a_stale_edit_is_listed(tmp_path):
    hidden = tmp_path / "hidden"
    shutil.copytree(hidden_root() / "causal-mask", hidden / "causal-mask")
    table = json.loads((hidden / "causal-mask" / "mistakes.json").read_text())
    # a mistake whose text to replace is no longer in the reference
    table["upper-triangle"]["edit"] = {"replace": "not in the reference\n", "with": "x = 1\n"}
    (hidden / "causal-mask" / "mistakes.json").write_text(json.dumps(table, ensure_ascii=False))
    out = _check("causal-mask", env={"LAB_HIDDEN_DIR": str(hidden)})
    assert out.returncode == 1, out.stdout + out.stderr
    problems = [line for line in out.stdout.splitlines() if line.startswith("PROBLEM")]
    assert any("'upper-triangle'" in p and "0 times" in p for p in problems), problems
    assert "causal-mask: OK" not in out.stdout


def test_a_mutant_no_test_catches_is_listed(tmp_path):
    hidden = tmp_path / "hidden"
    shutil.copytree(hidden_root() / "causal-mask", hidden / "causal-mask")
    table = json.loads((hidden / "causal-mask" / "mistakes.json").read_text())
    table["only-a-comment"] = {"title": {"en": "A comment", "zh": "注释"}, "en": "x", "zh": "x",
                               "edit": {"replace": "import torch\n", "with": "import torch  # hm\n"}}
    (hidden / "causal-mask" / "mistakes.json").write_text(json.dumps(table, ensure_ascii=False))
    out = _check("causal-mask", env={"LAB_HIDDEN_DIR": str(hidden)})
    assert out.returncode == 1, out.stdout + out.stderr
    assert "PROBLEM causal-mask: mistake 'only-a-comment' scores full marks" in out.stdout
