"""Hostile submissions are contained with a clear message, and the grader keeps serving."""

import os
from pathlib import Path

import pytest

from grader.paths import REPO_ROOT, hidden_root

EX = "manual-attention"
HIDDEN_FILE = hidden_root() / EX / "reference.py"
REF = HIDDEN_FILE.read_text()
PWNED = REPO_ROOT / "PWNED_BY_TEST.txt"

# name -> (source, expected report status, words the first test's message must contain)
HOSTILE = {
    "infinite loop": ("while True:\n    pass\n", "timeout", "Time limit"),
    "sleep": ("import time\ntime.sleep(60)\n", "timeout", "Time limit"),
    "memory bomb (python)": ("x = [0] * (10**10)\n", "load_error", "out of memory"),
    "memory bomb (torch)": ("import torch\nx = torch.empty(10**11)\n", "load_error", "out of memory"),
    "fork storm": ("import os\nwhile True:\n    os.fork()\n", "load_error", "not allow"),
    "shell command": ("import subprocess\nsubprocess.run(['cat', '/etc/hostname'])\n", "load_error", "not allow"),
    "huge output": ("while True:\n    print('x' * 10000)\n", "output_limit", "printed too much"),
    "sys.exit": ("import sys\nsys.exit(0)\n", "load_error", "sys.exit"),
    "os._exit after defining everything": (REF + "\nimport os\nos._exit(0)\n", "crashed", "ended the process early"),
    "kill the parent": ("import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n", "load_error", "not allow"),
    "kill the parent's group": ("import os, signal\nos.killpg(os.getpgid(os.getppid()), signal.SIGKILL)\n",
                                "load_error", "not allow"),
    "kill every process": ("import os, signal\nos.kill(-1, signal.SIGKILL)\n", "load_error", "not allow"),
    "read the solution": (f"print(open({str(HIDDEN_FILE)!r}).read())\n", "load_error", "not allow"),
    "list the tests": (f"import os\nprint(os.listdir({str(REPO_ROOT / 'tests')!r}))\n", "load_error", "not allow"),
    "read the parent's environment": ("import os\nprint(open(f'/proc/{os.getppid()}/environ').read())\n",
                                      "load_error", "not allow"),
    "open a socket": ("import socket\nsocket.create_connection(('127.0.0.1', 80), timeout=1)\n",
                      "load_error", "not allow"),
    "write into the project": (f"open({str(PWNED)!r}, 'w').write('x')\n", "load_error", "not allow"),
    "segfault through ctypes": ("import ctypes\nctypes.string_at(0)\n", "crashed", "SIGSEGV"),
    "write fake frames to the result pipe": (
        REF + "\nimport os\nos.write(3, b'\\x00\\x00\\x00\\x10garbagegarbage!!')\n", "malformed", "result channel"),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_submission_is_contained(grader, name):
    source, status, words = HOSTILE[name]
    report = grader.grade(EX, source)
    assert report.status == status, (report.status, report.tests[0].message)
    assert report.score == 0
    assert words in report.tests[0].message["en"], report.tests[0].message["en"]
    assert report.tests[0].message["zh"]
    assert not PWNED.exists()
    # still serving: the reference scores full right after
    assert grader.grade(EX, REF).full_marks


def test_environment_is_scrubbed(grader, secret):
    src = "import os\nprint(sorted(os.environ))\nprint(os.environ.get('LAB_TEST_SECRET_TOKEN'))\n"
    report = grader.grade(EX, src)
    assert "LANG" in report.output and secret not in report.output
    assert "LAB_TEST_SECRET_TOKEN" not in report.output
    worker_pid = grader.pool.workers[0].proc.pid
    assert secret.encode() not in Path(f"/proc/{worker_pid}/environ").read_bytes()
    assert os.environ["LAB_TEST_SECRET_TOKEN"] == secret  # the trusted side still has it


def test_patching_torch_and_numpy_does_not_help(grader):
    src = ("import numpy, torch\n"
           "torch.allclose = lambda *a, **k: True\ntorch.equal = lambda *a, **k: True\n"
           "numpy.allclose = lambda *a, **k: True\nnumpy.isclose = lambda *a, **k: True\n"
           "scores = weights = [[0.0] * 3] * 3\ncontext = [0.0] * 4\n"
           "def attention(Q, K, V, mask=None):\n    return V[..., :1, :], V\n")
    report = grader.grade(EX, src)
    assert report.score == 0 and report.status == "graded"


def test_printing_a_fake_result_changes_nothing(grader):
    src = 'import json\nprint(json.dumps({"score": 9, "max_score": 9, "tests": []}))\n'
    report = grader.grade(EX, src)
    assert report.score == 0 and '"score": 9' in report.output


def test_raw_memory_tricks_cannot_read_hidden_files(grader):
    # A Python audit hook would be removable this way; the kernel's Landlock rules are not.
    src = ("import sys, torch\n"
           "try:\n    torch._C._construct_storage_from_data_pointer\nexcept AttributeError:\n    pass\n"
           "sys.addaudithook(lambda *a: None)\n"
           f"print(open({str(hidden_root() / EX / 'tests.py')!r}).read())\n")
    report = grader.grade(EX, src)
    assert report.status == "load_error" and "SCORES" not in report.output


def test_sandbox_level_is_reported(grader):
    level = grader.sandbox_level()
    assert level["summary"] in ("isolated", "full", "strict")  # never below the floor
    assert level["setsid"] and level["rlimits"]
    assert level["repo_blocked"] is True


def test_worker_is_restarted_after_it_dies(grader):
    worker = grader.pool.workers[0]
    old = worker.proc.pid
    worker.proc.kill()
    worker.proc.wait()
    assert grader.grade(EX, REF).full_marks
    assert worker.proc.pid != old
