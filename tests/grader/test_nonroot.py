"""The sandbox as a Space runs it: the app as uid 1000, with no `nobody` to switch to."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SECRET = "hf_lab_nonroot_secret_51c0"

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("setpriv") is None,
    reason="needs root and setpriv to start a uid-1000 process",
)


@pytest.fixture(scope="module")
def probe() -> dict:
    # uid 1000, no groups. The interpreter may live under /root (pyenv): the probe keeps only
    # CAP_DAC_READ_SEARCH to load it, and the sandbox must drop it (and every other capability)
    # before learner code runs, or the spy below would read root-only files.
    cmd = ["setpriv", "--reuid=1000", "--regid=1000", "--clear-groups",
           "--inh-caps=+dac_read_search", "--ambient-caps=+dac_read_search",
           sys.executable, "-s", str(REPO / "tests" / "grader" / "nonroot_probe.py")]
    env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "PYTHONPATH": str(REPO),
           "PYTHONDONTWRITEBYTECODE": "1", "HF_TOKEN": SECRET, "LANG": "C.UTF-8"}
    done = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


@pytest.mark.slow
def test_grades_as_uid_1000_at_least_full(probe):
    assert probe["uid"] == 1000
    level = probe["level"]
    assert level["summary"] in ("full", "strict"), level
    assert level["user"].startswith("uid 1000") and level["caps"] is True
    assert probe["reference_full"] is True


def test_learner_code_reads_nothing_of_the_app(probe):
    spy = probe["spy"]
    assert "SPY" in spy and SECRET not in spy
    assert spy.count("DENIED") == 3, spy


@pytest.mark.parametrize("layer", ["landlock", "seccomp"])
def test_refuses_without_a_layer(probe, layer):
    assert probe[f"without_{layer}"].startswith("refused: "), probe[f"without_{layer}"]
    assert "LAB_SANDBOX_MIN" in probe[f"without_{layer}"]


def test_non_dumpable_app_hides_its_environment_even_without_landlock(probe):
    spy = probe["spy_without_landlock"]
    assert "SPY" in spy and SECRET not in spy
    assert "'environ': 'DENIED" in spy and "'mem': 'DENIED" in spy, spy
