"""pool.py: one sandboxed job on a warm worker, as the grading pipeline sends it (checks stripped),
and what comes back: messages in the runner's order, output split at "loaded", and each way a
run can end (exit, signal, timeout, output and result caps, forged result bytes)."""

import signal

import numpy as np
import torch

from grader.spec import Case, Job, JobLimits, call, check
from grader.typed import TestCase

LIMITS = JobLimits(wall_s=5.0, cpu_s=5)


def _job(source: str, limits: JobLimits = LIMITS, calls: int = 1) -> Job:
    case = Case("f", 1.0, [call("f", torch.arange(3.0), check=check("allclose", expected=[0, 2, 4]))
                           for _ in range(calls)])
    return Job(source=source, cases=[TestCase.of(case).to_wire()], limits=limits)


def test_a_job_returns_the_runners_messages_and_what_was_printed_at_load(grader):
    src = 'print("at load")\ndef f(x):\n    print("in case")\n    return x * 2\n'
    raw = grader.pool.run(_job(src, calls=2))
    assert raw.status == "ok" and not raw.malformed and raw.exit_code == 0
    assert [m["kind"] for m in raw.messages] == ["sandbox", "loaded", "case", "done"]
    assert raw.messages[0]["level"]["summary"] == grader.sandbox_level()["summary"]
    records = raw.messages[2]["records"]
    assert len(records) == 2 and all(np.array_equal(r["value"], [0.0, 2.0, 4.0]) for r in records)
    assert "f" in raw.messages[1]["names"]
    assert raw.load_output == "at load\n"  # printed before any case input reached the child
    assert raw.output == "at load\nin case\nin case\n"


def test_the_sandbox_never_receives_expected_values(grader):
    src = ("import sys\n"
           "def f(x):\n"
           "    frame = sys._getframe(1)\n"
           "    while frame is not None and 'step' not in frame.f_locals:\n"
           "        frame = frame.f_back\n"
           "    return repr({k: v for k, v in frame.f_locals['step'].items() if k != 'args'})\n")
    raw = grader.pool.run(_job(src))
    step = raw.messages[2]["records"][0]["value"]
    assert "'check': {}" in step and "expected" not in step and "allclose" not in step


def test_output_is_capped_but_counted(grader):
    limits = JobLimits(wall_s=5.0, cpu_s=5, output_bytes=1000)
    raw = grader.pool.run(_job('print("x" * 5000)\ndef f(x):\n    return x * 2\n', limits))
    assert raw.status == "ok" and len(raw.output) == 1000 and raw.output_bytes == 5001


def test_too_much_output_stops_the_run(grader):
    limits = JobLimits(wall_s=5.0, cpu_s=5, output_hard_bytes=1 << 20)
    raw = grader.pool.run(_job('import sys\nfor _ in range(64):\n    sys.stdout.write("y" * 65536)\n'
                               'def f(x):\n    return x\n', limits))
    assert raw.status == "output_limit" and raw.output_bytes > 1 << 20


def test_a_busy_loop_ends_at_the_wall_clock(grader):
    limits = JobLimits(wall_s=1.0, cpu_s=5)
    raw = grader.pool.run(_job("def f(x):\n    while True:\n        pass\n", limits))
    assert raw.status == "timeout" and 1.0 <= raw.wall_s < 4.0
    assert [m["kind"] for m in raw.messages] == ["sandbox", "loaded"]


def test_exit_codes_and_signals_are_reported_and_the_worker_carries_on(grader):
    raw = grader.pool.run(_job("import os\ndef f(x):\n    os._exit(7)\n"))
    assert raw.exit_code == 7 and raw.signal is None and "done" not in [m["kind"] for m in raw.messages]
    raw = grader.pool.run(_job("import os, signal\ndef f(x):\n    os.kill(os.getpid(), signal.SIGKILL)\n"))
    assert raw.signal == signal.SIGKILL and raw.exit_code is None
    assert grader.pool.run(_job("def f(x):\n    return x * 2\n")).status == "ok"


def test_a_result_over_the_budget_is_not_sent(grader):
    limits = JobLimits(wall_s=5.0, cpu_s=5, result_bytes=10_000)
    raw = grader.pool.run(_job("import torch\ndef f(x):\n    return torch.zeros(100_000)\n", limits))
    assert raw.status == "ok" and [m["kind"] for m in raw.messages][-1] == "too_large"
    assert all(m.get("kind") != "case" for m in raw.messages)


def test_bytes_forged_into_the_result_channel_make_the_run_malformed(grader):
    raw = grader.pool.run(_job('import os\nos.write(3, b"\\x00\\x00\\x00\\x02{}")\n'
                               "def f(x):\n    return x * 2\n"))
    assert raw.malformed and raw.messages == [] and raw.malformed_reason


def test_a_new_worker_removes_the_folders_of_zygotes_killed_hard(tmp_path):
    """A zygote killed hard (SIGKILL, a crashed test run) leaves its empty mount-point folder
    in /tmp; the next worker to start removes those whose process is gone, and only those."""
    import os
    import subprocess
    import tempfile
    from pathlib import Path

    from grader.api import Grader

    gone = subprocess.Popen(["true"])
    gone.wait()  # a pid with no process behind it any more
    root = Path(tempfile.gettempdir())
    dead = root / f"lab-zygote-{gone.pid}-redteam"
    (dead / "job").mkdir(parents=True)
    alive = root / f"lab-zygote-{os.getpid()}-redteam"  # a live process's: kept
    (alive / "job").mkdir(parents=True)
    full = root / f"lab-zygote-{gone.pid}-withfile"  # never anything inside is removed
    full.mkdir()
    (full / "keep.txt").write_text("x")
    try:
        Grader(max_wall_s=2.0).start().close()
        assert not dead.exists()
        assert (alive / "job").is_dir() and (full / "keep.txt").exists()
    finally:
        for path in (alive / "job", alive, full / "keep.txt", full):
            if path.is_dir():
                path.rmdir()
            elif path.exists():
                path.unlink()
