"""The zygote: imports torch and the allowed modules once, then forks one confined child per job.

Run as ``python -m grader.sandbox.worker --control-fd N --protect PATH ...`` with a scrubbed environment
(see pool.py). The zygote never holds job data, now or earlier: for each job the trusted side
passes three fresh pipe ends over the control socket (SCM_RIGHTS), the forked child reads its
payload from one and writes its results and output straight back on the others. The zygote
only learns the limits, forks, enforces the wall clock and reports how the child ended. A child
that walks frames, the GC or the heap it inherited finds nothing of any other learner.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import signal
import socket
import sys
import tempfile
import time
from pathlib import Path

import torch

torch.set_num_threads(1)  # before any torch op: forking after a multi-threaded op deadlocks
# Warm up once here (single-threaded, so safe before fork): children inherit initialised
# kernels and cpuinfo, and cannot read /proc/cpuinfo themselves.
torch.softmax(torch.ones(2, 3) @ torch.ones(3, 2), dim=-1).sum().item()
import numpy  # noqa: E402,F401 - imported once here so children do not pay for it

from grader.sandbox import codec, fixtures, runner  # noqa: E402,F401
from grader.sandbox import confine as sandbox  # noqa: E402
from grader.sandbox.jobs import JobLimits  # noqa: E402

# Modules a submission may import. Loaded here once: children start with them in memory, and
# when the child runs as `nobody` it may not be able to read the interpreter's files at all
# (e.g. a Python installed under /root), so anything not preloaded may be unimportable there.
PRELOAD = (
    "abc", "array", "bisect", "cmath", "collections", "collections.abc", "contextlib", "copy",
    "ctypes", "dataclasses", "datetime", "decimal", "encodings.idna", "enum", "fractions",
    "functools", "heapq", "inspect", "io", "itertools", "json", "math", "numbers", "operator",
    "pprint", "random", "re", "signal", "socket", "statistics", "string", "struct", "subprocess",
    "textwrap", "time", "traceback", "typing", "warnings", "numpy.fft", "numpy.linalg",
    "numpy.random", "torch.nn.functional", "torch.nn.init", "torch.optim", "torch.utils.data",
)
MAX_CONTROL = 1 << 16
REFUSED_EXIT = 3  # the child's confinement fell below the required level: no learner code ran


def preload() -> list[str]:
    """Import PRELOAD; return the names that could not be imported."""
    import importlib

    missing = []
    for name in PRELOAD:
        try:
            importlib.import_module(name)
        except Exception:
            missing.append(name)
    return missing


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _read_exact(fd: int, n: int) -> bytes:
    chunks, got = [], 0
    while got < n:
        chunk = os.read(fd, min(n - got, 1 << 20))
        if not chunk:
            raise EOFError("the trusted side closed the payload pipe")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def read_frame(fd: int) -> bytes:
    """One codec frame from the trusted side."""
    return codec.read_frame(lambda n: _read_exact(fd, n))


def _read_to_eof(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def _child(fds: tuple[int, int, int], limits: JobLimits, minimum: str, ctx: dict) -> None:
    """Runs in the forked child: read the payload, confine, refuse or run. Never returns."""
    try:
        payload_r, result_w, out_w = fds
        # The source comes first, straight from the trusted side; the cases follow on the same
        # pipe only after the trusted side has seen "loaded" (see pool._collect).
        try:
            payload = read_frame(payload_r)
        except EOFError:
            payload = b""  # the start-up probe: confine and report, nothing to run
        devnull = os.open("/dev/null", os.O_RDONLY)
        os.dup2(devnull, 0)
        os.dup2(out_w, 1)
        os.dup2(out_w, 2)
        os.dup2(result_w, 3)
        os.dup2(payload_r, 4)
        os.closerange(5, 65536)  # the control socket and every other fd of the zygote
        sys.stdout = open(1, "w", buffering=1, encoding="utf-8", errors="replace", closefd=False)
        sys.stderr = sys.stdout
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        level = sandbox.confine(limits, ctx["mount_point"], ctx["protected"], ctx["ro_paths"],
                                ctx["disabled"])
        try:
            os.listdir(ctx["protected"][0])
            level["repo_blocked"] = False
        except OSError:
            level["repo_blocked"] = True
        budget = [limits.result_bytes]

        def emit(msg: dict) -> None:
            data = codec.pack(msg, budget=budget[0])
            budget[0] -= len(data)
            _write_all(3, data)

        emit({"kind": "sandbox", "level": level})
        if not sandbox.at_least(level["summary"], minimum):
            os._exit(REFUSED_EXIT)
        if payload:
            job = {"source": codec.unpack(payload)["source"],
                   "cases": lambda: codec.unpack(read_frame(4), as_torch=True)["cases"]}
            del payload
            try:
                runner.run_job(job, emit)
            except codec.TooLarge:
                emit({"kind": "too_large"})
        sys.stdout.flush()
    except BaseException:  # noqa: BLE001 - nothing may escape a forked child
        os._exit(70)
    os._exit(0)


def _kill(pid: int) -> None:
    for target in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
        try:
            target()
        except OSError:
            pass


class TrustedSideGone(Exception):
    """The control socket closed mid-job: the job is ended and the zygote exits."""


def _wait(pid: int, deadline: float, control: socket.socket | None, job_id: int) -> tuple[str, int]:
    """Wait for the child until ``deadline``, or a kill request for this job; reap it."""
    status = "ok"
    try:
        pidfd = os.pidfd_open(pid)
    except OSError:  # kernels before 5.3: poll instead
        pidfd = None
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                status = "timeout"
                break
            watch = [fd for fd in (pidfd, control) if fd is not None]
            ready, _, _ = select.select(watch, [], [], remaining if pidfd is not None else min(remaining, 0.005))
            if (pidfd is None or pidfd in ready) and os.waitid(
                    os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                break  # exited; not reaped yet, so its process group cannot be reused
            if control is not None and control in ready:
                data = control.recv(MAX_CONTROL)
                if not data:  # the trusted side is gone: end the job, then ourselves (main's
                    _kill(pid)  # finally removes the mount-point folders on the way out)
                    os.waitpid(pid, 0)
                    raise TrustedSideGone
                msg = json.loads(data)
                if msg.get("type") == "kill" and msg.get("id") == job_id:
                    status = str(msg.get("reason", "killed"))[:32]
                    break
    finally:
        if pidfd is not None:
            os.close(pidfd)
    _kill(pid)  # the whole session: its threads and anything it managed to start
    _, st = os.waitpid(pid, 0)
    return status, st


def run_job(fds: tuple[int, int, int], limits: JobLimits, minimum: str, ctx: dict,
            control: socket.socket | None = None, job_id: int = 0) -> dict:
    """Fork a child on the given pipe ends, wait for it within the wall limit, say how it ended."""
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        _child(fds, limits, minimum, ctx)
    for fd in fds:
        os.close(fd)
    status, st = _wait(pid, start + limits.wall_s, control, job_id)
    return {"type": "exit", "id": job_id, "status": status, "wall_s": time.monotonic() - start,
            "exit_code": os.WEXITSTATUS(st) if os.WIFEXITED(st) else None,
            "signal": os.WTERMSIG(st) if os.WIFSIGNALED(st) else None}


def probe(ctx: dict) -> dict:
    """Confine a child that runs nothing and return the level it reached."""
    p_r, p_w = os.pipe()
    r_r, r_w = os.pipe()
    o_r, o_w = os.pipe()
    os.close(p_w)  # empty payload: the child only confines and reports
    run_job((p_r, r_w, o_w), JobLimits(wall_s=10.0), sandbox.LEVELS[0], ctx)
    raw = _read_to_eof(r_r)
    os.close(r_r)
    os.close(o_r)
    try:
        found, _ = codec.read_frames(raw, max_frames=8, partial=True)
    except codec.CodecError:
        found = []
    first = found[0] if found else {}
    return first.get("level", {}) if isinstance(first, dict) else {}


def _serve_one(control: socket.socket, ctx: dict) -> bool:
    """Take one job from the control socket and run it; False once the trusted side is gone.

    Each job gets this fresh frame, and nothing of it (the request, how the job ended) stays
    in main's: a child walking the frames above it finds its own job's limits and nothing else.
    """
    data, fds, _flags, _addr = socket.recv_fds(control, MAX_CONTROL, 3)
    if not data:
        return False
    msg = json.loads(data)
    if msg.get("type") != "job" or len(fds) != 3:
        for fd in fds:
            os.close(fd)
        return True  # e.g. a late kill for a job that already ended
    job = (tuple(fds), JobLimits.from_dict(msg.get("limits")), str(msg["minimum"]))
    job_id = int(msg["id"])  # random per job (pool.py): says nothing about other jobs
    del data, fds, msg
    control.sendall(json.dumps(run_job(*job, ctx, control, job_id)).encode())
    return True


def sweep_dead_mount_points(tmpdir: str | None) -> None:
    """Remove the empty mount-point folders of zygotes that were killed hard (their pool never
    got to remove them): rmdir only, never anything inside, and only where no process with
    that pid exists any more."""
    for base in Path(tmpdir or tempfile.gettempdir()).glob("lab-zygote-*-*"):
        try:
            os.kill(int(base.name.split("-")[2]), 0)
            continue  # alive (or a reused pid): leave it
        except ProcessLookupError:
            pass
        except (ValueError, OSError):
            continue
        for path in (base / "job", base):
            try:
                path.rmdir()
            except OSError:
                pass


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m grader.sandbox.worker")
    parser.add_argument("--control-fd", type=int, required=True)
    parser.add_argument("--protect", action="append", default=[])
    parser.add_argument("--without", action="append", default=[], choices=sandbox.LAYERS)
    parser.add_argument("--tmpdir", default=tempfile.gettempdir())
    args = parser.parse_args(argv)
    sandbox.set_undumpable()
    control = socket.socket(fileno=args.control_fd)
    devnull = os.open("/dev/null", os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)  # stray prints go nowhere; the protocol lives on the control socket
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    protected = [os.path.realpath(p) for p in args.protect] or [os.getcwd()]
    missing = preload()
    sweep_dead_mount_points(args.tmpdir)
    # An empty folder that is only ever a mount point (or, without namespaces, a read-only cwd).
    base = tempfile.mkdtemp(prefix=f"lab-zygote-{os.getpid()}-", dir=args.tmpdir)
    mount_point = os.path.join(base, "job")
    os.mkdir(mount_point, 0o555)
    os.chmod(base, 0o755)
    ctx = {"mount_point": mount_point, "protected": protected, "disabled": frozenset(),
           "ro_paths": sandbox.read_only_paths(protected)}
    try:
        offered = probe(ctx)  # what the host allows, every layer tried
        ctx["disabled"] = frozenset(args.without)
        reached = probe(ctx) if args.without else dict(offered)
        reached["offered"] = offered.get("summary", "basic")
        reached["preload_missing"] = missing
        control.sendall(json.dumps({"type": "ready", "pid": os.getpid(), "level": reached}).encode())
        while _serve_one(control, ctx):
            pass
    except TrustedSideGone:
        pass
    finally:
        os.rmdir(mount_point)
        os.rmdir(base)


if __name__ == "__main__":
    main()
