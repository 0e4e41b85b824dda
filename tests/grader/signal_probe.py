"""Run by test_signals.py as root or as uid 1000: learner code directs signals at a victim
process group through fcntl/ioctl (no kill call at all) with Landlock capped at ABI 5 (no
signal scoping, as on kernels before 6.12); print JSON saying whether the victim survived."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from grader.api import Grader, protected_paths
from grader.exercises import get
from grader.sandbox.pool import WorkerPool

EX = get("manual-attention")
# Each way the kernel sends SIGIO (or the signal F_SETSIG names) to a file's owner: F_SETOWN
# to -pgid, then O_ASYNC through F_SETFL or FIOASYNC, then make the pipe readable.
ATTACK = r'''
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
F_GETFL, F_SETFL, F_SETOWN, F_SETSIG, F_SETOWN_EX, O_ASYNC = 3, 4, 8, 10, 15, 0o20000
FIOSETOWN, SIOCSPGRP, FIOASYNC = 0x8901, 0x8902, 0x5452
said = {}
def call(name, fn, *args):
    said[name] = (fn(*args), ctypes.get_errno())
for how in ("setfl", "fioasync", "setown_ex"):
    r, w = os.pipe()
    if how == "setown_ex":
        owner = (ctypes.c_int * 2)(2, PGID)  # F_OWNER_PGRP, pgid
        call(how + ":F_SETOWN_EX", libc.fcntl, r, F_SETOWN_EX, ctypes.byref(owner))
    else:
        call(how + ":F_SETOWN", libc.fcntl, r, F_SETOWN, -PGID)
    call(how + ":F_SETSIG", libc.fcntl, r, F_SETSIG, 9)
    if how == "fioasync":
        on = ctypes.c_int(1)
        call(how + ":FIOASYNC", libc.ioctl, r, FIOASYNC, ctypes.byref(on))
    else:
        call(how + ":F_SETFL", libc.fcntl, r, F_SETFL, libc.fcntl(r, F_GETFL) | O_ASYNC)
    os.write(w, b"x")
pg = ctypes.c_int(-PGID)
call("FIOSETOWN", libc.ioctl, 0, FIOSETOWN, ctypes.byref(pg))
call("SIOCSPGRP", libc.ioctl, 0, SIOCSPGRP, ctypes.byref(pg))
r, w = os.pipe()
call("F_SETFL O_NONBLOCK", libc.fcntl, r, F_SETFL, os.O_NONBLOCK)  # still allowed
print("ATTACK", said)
'''


def run() -> dict:
    # The victim: a process group of the uid learner code runs as (nobody under root, else
    # ours), like another learner's job or the app itself on a Space.
    as_root = os.geteuid() == 0
    victim = subprocess.Popen(["sleep", "120"], start_new_session=True,
                              user=65534 if as_root else None, group=65534 if as_root else None)
    # Landlock capped at 5 is "full", not "strict" (no signal scoping): grade there knowingly,
    # as an operator of such a host would (LAB_SANDBOX_MIN).
    os.environ["LAB_SANDBOX_MIN"] = "full"
    try:
        pool = WorkerPool(protected=protected_paths(), without=("landlock-scope",))
        with Grader(pool=pool) as g:
            level = g.sandbox_level()
            out = g.run_examples(EX.id, ATTACK.replace("PGID", str(victim.pid))).output
        time.sleep(0.3)
        return {"uid": os.getuid(), "level": level, "output": out, "victim_alive": victim.poll() is None}
    finally:
        victim.kill()
        victim.wait()


if __name__ == "__main__":
    json.dump(run(), sys.stdout)
