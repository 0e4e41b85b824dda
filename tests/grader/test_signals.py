"""Issue 19, property 3 (F3): no signal leaves the sandbox, on any kernel we run on. Learner
code sets a pipe's owner to a victim's process group (F_SETOWN -pgid, F_SETOWN_EX, FIOSETOWN,
SIOCSPGRP), picks SIGKILL (F_SETSIG), turns on O_ASYNC (F_SETFL, FIOASYNC) and writes: the
kernel then signals the whole group without any kill call. With Landlock capped at ABI 5 (no
signal scoping, kernels before 6.12), only seccomp stands in the way. As root (learner code
runs as nobody; the victim is another nobody group) and as uid 1000 (a Space: the victim is
a group of the app's own uid), in the style of test_nonroot.py."""

from __future__ import annotations

import ctypes
import errno
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grader.sandbox import seccomp

REPO = Path(__file__).resolve().parents[2]
PROBE = REPO / "tests" / "grader" / "signal_probe.py"
PID_PROBE = REPO / "tests" / "grader" / "pid_probe.py"
ENV = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "PYTHONPATH": str(REPO),
       "PYTHONDONTWRITEBYTECODE": "1", "LANG": "C.UTF-8"}
AS_UID_1000 = ["setpriv", "--reuid=1000", "--regid=1000", "--clear-groups",
               "--inh-caps=+dac_read_search", "--ambient-caps=+dac_read_search"]


def _probe(prefix: list[str], probe: Path = PROBE) -> dict:
    done = subprocess.run(prefix + [sys.executable, "-s", str(probe)], cwd=REPO, env=ENV,
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


@pytest.mark.skipif(not seccomp.available(), reason="no seccomp table for this machine")
@pytest.mark.parametrize("who", ["root", "uid 1000"])
def test_learner_code_cannot_signal_a_process_group_through_a_file_owner(who):
    if os.geteuid() != 0 or (who == "uid 1000" and shutil.which("setpriv") is None):
        pytest.skip("needs root (and setpriv for uid 1000)")
    result = _probe(AS_UID_1000 if who == "uid 1000" else [])
    assert result["level"]["landlock"] == 5, result["level"]
    assert result["level"]["summary"] == "full", result["level"]  # not "strict" without scoping
    assert "ATTACK" in result["output"], result["output"]
    assert result["victim_alive"], result["output"]
    said = result["output"]
    for name in ("F_SETOWN", "F_SETOWN_EX", "F_SETSIG", "F_SETFL", "FIOASYNC", "FIOSETOWN",
                 "SIOCSPGRP"):
        assert f":{name}': (-1, {errno.EPERM})" in said or f"'{name}': (-1, {errno.EPERM})" in said, name
    assert "'F_SETFL O_NONBLOCK': (0, " in said


@pytest.mark.skipif(not seccomp.available(), reason="no seccomp table for this machine")
def test_the_filter_refuses_signal_direction_and_allows_the_rest():
    """The filter alone, in a forked child: every call that can aim signals is EPERM, the
    harmless uses of fcntl and ioctl still work."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(r)
            seccomp.apply()
            libc = ctypes.CDLL(None, use_errno=True)
            a, b = os.pipe()
            arg = ctypes.c_int(os.getpid())
            refused = [libc.fcntl(a, 8, os.getpid()), libc.fcntl(a, 10, 9),
                       libc.fcntl(a, 15, ctypes.byref((ctypes.c_int * 2)(1, os.getpid()))),
                       libc.fcntl(a, 4, os.O_NONBLOCK | 0o20000),
                       libc.ioctl(a, 0x5452, ctypes.byref(ctypes.c_int(1))),
                       libc.ioctl(a, 0x8901, ctypes.byref(arg)), libc.ioctl(a, 0x8902, ctypes.byref(arg)),
                       libc.ioctl(a, 0x5410, ctypes.byref(arg))]
            allowed = [libc.fcntl(a, 4, os.O_NONBLOCK), libc.fcntl(a, 3), libc.fcntl(a, 9),
                       libc.fcntl(a, 1)]
            ok = all(x == -1 for x in refused) and all(x >= 0 for x in allowed)
            os.write(w, b"ok" if ok else repr((refused, allowed)).encode())
        finally:
            os._exit(0)
    os.close(w)
    said = os.read(r, 1000)
    os.waitpid(pid, 0)
    assert said == b"ok", said


@pytest.mark.skipif(not seccomp.available(), reason="no seccomp table for this machine")
@pytest.mark.parametrize("who", ["root", "uid 1000"])
def test_learner_code_cannot_limit_renice_or_pin_another_process(who):
    """Red team 2026-12-03, R1/R2: prlimit64(app, RLIMIT_CPU, 1 s) as uid 1000 (a Space) made
    the kernel SIGKILL the app within a second, with no signal call; as root, one learner's
    job limited and reniced another's. Calls naming a pid act only on the child itself."""
    if os.geteuid() != 0 or (who == "uid 1000" and shutil.which("setpriv") is None):
        pytest.skip("needs root (and setpriv for uid 1000)")
    result = _probe(AS_UID_1000 if who == "uid 1000" else [], PID_PROBE)
    said = result["output"]
    assert "ATTACK" in said, said
    for name in ("prlimit64 set", "prlimit64 get", "setpriority", "setpriority user", "sched_setaffinity"):
        assert f"'{name}': (-1, {errno.EPERM})" in said, (name, said)
    assert "'prlimit64 self': (0, " in said  # its own limits stay readable (getrlimit uses it)
    assert result["after"] == result["before"] and result["victim_alive"], result


@pytest.mark.skipif(not seccomp.available(), reason="no seccomp table for this machine")
def test_the_filter_allows_pid_calls_on_the_child_itself_only():
    r, w = os.pipe()
    victim = subprocess.Popen(["sleep", "30"])
    pid = os.fork()
    if pid == 0:
        try:
            os.close(r)
            seccomp.apply()
            libc = ctypes.CDLL(None, use_errno=True)
            lim = (ctypes.c_ulong * 2)()
            other = [libc.syscall(302, victim.pid, 7, None, ctypes.byref(lim)),
                     libc.setpriority(0, victim.pid, 1), libc.syscall(140, 0, victim.pid),
                     libc.syscall(251, 1, victim.pid, 0), libc.syscall(312, os.getpid(), victim.pid, 0, 0, 0)]
            own = [libc.syscall(302, 0, 7, None, ctypes.byref(lim)),
                   libc.syscall(302, os.getpid(), 7, None, ctypes.byref(lim)), libc.setpriority(0, 0, 1)]
            ok = all(x == -1 for x in other) and all(x == 0 for x in own) and len(os.sched_getaffinity(0)) >= 1
            os.write(w, b"ok" if ok else repr((other, own)).encode())
        finally:
            os._exit(0)
    os.close(w)
    said = os.read(r, 1000)
    os.waitpid(pid, 0)
    victim.kill()
    victim.wait()
    assert said == b"ok", said
