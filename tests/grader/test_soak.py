"""200 mixed honest and hostile submissions on two warm workers: afterwards no process, IPC
object or temp file is left, the workers' memory is stable, and every submission has a row."""

from __future__ import annotations

import os
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import test_boundary as attacks

from gradebook import Submission, open_gradebook
from grader.api import Grader

N = 200
HONEST = attacks.REF
WRONG = attacks.REF.replace("math.sqrt", "1.0 *") if "math.sqrt" in attacks.REF else "x = 1\n"
HOSTILE = [
    attacks.SCANNER,
    attacks.IPC_ATTACK,
    attacks.REF + "\n" + attacks.FORGED["error that is a string"],
    attacks._write_frames(attacks.BOMBS["300k nodes"]),
    attacks._write_frames(attacks.BOMBS["63 MiB frame"]),
    attacks.CLEANUP_ATTACKS["146k empty files"],
    "import ctypes\nctypes.string_at(0)\n",
    "while True:\n    pass\n",
]


def _children_of(pids: set[int]) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) in pids:
                out.append(int(entry.name))
    return out


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError(pid)


@pytest.mark.slow
def test_soak_of_mixed_submissions(tmp_path):
    rng = random.Random(8)
    jobs = [("honest", HONEST) if i % 3 == 0 else ("wrong", WRONG) if i % 3 == 1 else
            ("hostile", rng.choice(HOSTILE)) for i in range(N)]
    jobs[-5:] = [("honest", HONEST)] * 5
    tmp_before, ipc_before = attacks._tmp_entries(), attacks._ipc_entries()
    book = open_gradebook(f"sqlite:///{tmp_path / 'soak.sqlite3'}")
    with Grader(workers=2, max_wall_s=1.0) as g:
        zygotes = {w.proc.pid for w in g.pool.workers}
        for _ in range(10):  # settle: imports and allocator pools reach their working size
            g.grade(attacks.EX.id, HONEST)
        rss_before = sum(_rss_kib(p) for p in zygotes)

        def one(i: int):
            kind, src = jobs[i]
            report = g.grade(attacks.EX.id, src, learner=f"soak-{i}")
            book.record(Submission.from_report(report, src, f"soak-{i}"))
            return kind, report

        with ThreadPoolExecutor(4) as pool:
            results = list(pool.map(one, range(N)))
        zygotes_after = {w.proc.pid for w in g.pool.workers}
        rss_after = sum(_rss_kib(p) for p in zygotes_after)
        assert _children_of(zygotes_after) == []  # no job outlives its grading
    assert zygotes_after == zygotes  # no hostile job killed a worker
    assert all(r.full_marks for k, r in results if k == "honest")
    assert all(r.score == 0 for k, r in results if k == "hostile")
    assert book.count() == N
    assert attacks._ipc_entries() - ipc_before == set()
    # Other processes on a shared machine may add their own zygotes' folders meanwhile.
    ours = {f"lab-zygote-{pid}-" for pid in zygotes}
    assert not any(e.startswith(tuple(ours)) for e in os.listdir("/tmp"))
    assert attacks._tmp_entries() - tmp_before == set()
    assert rss_after - rss_before < 16 * 1024, (rss_before, rss_after)
    book.close()
