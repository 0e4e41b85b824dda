"""Run by test_signals.py as root or as uid 1000: learner code aims calls that take a pid at
a victim process (prlimit64 RLIMIT_CPU to 1 s, which makes the kernel kill a process that
has used more; setpriority; sched_setaffinity): no signal at all. Prints JSON with what the
calls returned and the victim's limits and niceness afterwards, read from /proc."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from grader.api import Grader, protected_paths
from grader.exercises import get
from grader.sandbox.pool import WorkerPool

EX = get("manual-attention")
ATTACK = r'''
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
class RL(ctypes.Structure):
    _fields_ = [("cur", ctypes.c_ulong), ("max", ctypes.c_ulong)]
said = {}
def call(name, *args):
    said[name] = (libc.syscall(*args), ctypes.get_errno())
call("prlimit64 set", 302, VICTIM, 0, ctypes.byref(RL(1, 1)), None)
call("prlimit64 get", 302, VICTIM, 7, None, ctypes.byref(RL()))
call("setpriority", 141, 0, VICTIM, 19)
call("setpriority user", 141, 2, 0, 19)
mask = ctypes.c_ulong(1)
call("sched_setaffinity", 203, VICTIM, ctypes.sizeof(mask), ctypes.byref(mask))
call("prlimit64 self", 302, 0, 7, None, ctypes.byref(RL()))
print("ATTACK", said)
'''


def _victim_state(pid: int) -> dict:
    with open(f"/proc/{pid}/limits") as f:
        cpu = next(line for line in f if line.startswith("Max cpu time")).split()[3]
    with open(f"/proc/{pid}/stat") as f:
        nice = int(f.read().rsplit(")", 1)[1].split()[16])
    return {"cpu_limit": cpu, "nice": nice, "cpus": len(os.sched_getaffinity(pid))}


def run() -> dict:
    as_root = os.geteuid() == 0
    victim = subprocess.Popen(["sleep", "120"], start_new_session=True,
                              user=65534 if as_root else None, group=65534 if as_root else None)
    try:
        before = _victim_state(victim.pid)
        pool = WorkerPool(protected=protected_paths())
        with Grader(pool=pool) as g:
            level = g.sandbox_level()
            out = g.run_examples(EX.id, ATTACK.replace("VICTIM", str(victim.pid))).output
        return {"uid": os.getuid(), "level": level, "output": out, "before": before,
                "after": _victim_state(victim.pid), "victim_alive": victim.poll() is None}
    finally:
        victim.kill()
        victim.wait()


if __name__ == "__main__":
    json.dump(run(), sys.stdout)
