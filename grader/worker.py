"""The warm worker: imports torch once, then forks one confined child per submission.

Run as ``python -m grader.worker --protect PATH ...`` with a scrubbed environment (see pool.py).
It never sees hidden tests, references or expected values: only a submission and the inputs
of its cases. Protocol on fds 0/1: frames from ``codec``; raw child bytes are relayed, never
decoded here.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import shutil
import signal
import struct
import sys
import tempfile
import time

import torch

torch.set_num_threads(1)  # before any torch op: forking after a multi-threaded op deadlocks
# Warm up once here (single-threaded, so safe before fork): children inherit initialised
# kernels and cpuinfo, and cannot read /proc/cpuinfo themselves.
torch.softmax(torch.ones(2, 3) @ torch.ones(3, 2), dim=-1).sum().item()
import numpy  # noqa: E402,F401 - imported once here so children do not pay for it

from grader import codec, fixtures, runner, sandbox  # noqa: E402,F401

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
from grader.spec import Limits  # noqa: E402

_RAW = struct.Struct(">Q")
PROBE_SOURCE = ""


def read_exact(fd: int, n: int) -> bytes:
    chunks, got = [], 0
    while got < n:
        chunk = os.read(fd, min(n - got, 1 << 20))
        if not chunk:
            raise EOFError("trusted side closed the pipe")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def read_frame(fd: int) -> bytes:
    """One codec frame (header length, header, blobs) from ``fd``."""
    head = read_exact(fd, 4)
    (hlen,) = struct.unpack(">I", head)
    header = read_exact(fd, hlen)
    total = sum(json.loads(header)["blobs"])
    return head + header + read_exact(fd, total)


def read_raw(fd: int) -> bytes:
    (n,) = _RAW.unpack(read_exact(fd, 8))
    return read_exact(fd, n)


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def send(fd: int, msg: dict, raw: bytes | None = None) -> None:
    data = codec.pack(msg)
    if raw is not None:
        data += _RAW.pack(len(raw)) + raw
    write_all(fd, data)


def _child(payload: bytes, limits: Limits, workdir: str, result_w: int, out_w: int,
           protected: list[str], ro_paths: list[str]) -> None:
    """Runs in the forked child: confine, then run the submission. Never returns."""
    try:
        devnull = os.open("/dev/null", os.O_RDONLY)
        os.dup2(devnull, 0)
        os.dup2(out_w, 1)
        os.dup2(out_w, 2)
        os.dup2(result_w, 3)
        os.closerange(4, 65536)  # protocol pipes to the trusted side must not be reachable
        sys.stdout = open(1, "w", buffering=1, encoding="utf-8", errors="replace", closefd=False)
        sys.stderr = sys.stdout
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        level = sandbox.confine(limits, workdir, protected, ro_paths)
        try:
            os.listdir(protected[0])
            level["repo_blocked"] = False
        except OSError:
            level["repo_blocked"] = True
        budget = [limits.result_bytes]

        def emit(msg: dict) -> None:
            data = codec.pack(msg, budget=budget[0])
            budget[0] -= len(data)
            write_all(3, data)

        emit({"kind": "sandbox", "level": level})
        job = codec.unpack(payload, as_torch=True)
        try:
            runner.run_job(job, emit)
        except codec.TooLarge:
            emit({"kind": "too_large"})
        sys.stdout.flush()
    except BaseException:  # noqa: BLE001 - nothing may escape a forked child
        os._exit(70)
    os._exit(0)


def run_job(control: dict, payload: bytes, protected: list[str], ro_paths: list[str]) -> tuple[dict, bytes]:
    """Fork a child for one job; collect its result bytes and capped output."""
    limits = Limits.from_dict(control.get("limits"))
    workdir = tempfile.mkdtemp(prefix="lab-job-")
    if os.geteuid() == 0:
        os.chown(workdir, sandbox.NOBODY, sandbox.NOBODY)
    result_r, result_w = os.pipe()
    out_r, out_w = os.pipe()
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        _child(payload, limits, workdir, result_w, out_w, protected, ro_paths)
    os.close(result_w)
    os.close(out_w)
    result, output = bytearray(), bytearray()
    out_total, status, deadline = 0, "ok", start + limits.wall_s
    open_fds = {result_r, out_r}
    exit_status = None
    while open_fds:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            status = "timeout"
            break
        ready, _, _ = select.select(list(open_fds), [], [], min(remaining, 0.05))
        for fd in ready:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                open_fds.discard(fd)
            elif fd == result_r:
                result += chunk
                if len(result) > limits.result_bytes:
                    status = "result_limit"
            else:
                out_total += len(chunk)
                if len(output) < limits.output_bytes:
                    output += chunk[: limits.output_bytes - len(output)]
                if out_total > limits.output_hard_bytes:
                    status = "output_limit"
        if status != "ok":
            break
        if not ready and exit_status is None:
            done, st = os.waitpid(pid, os.WNOHANG)
            if done:
                exit_status = st
                deadline = min(deadline, time.monotonic() + 0.2)  # drain what is left, briefly
    for target in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
        try:
            target()
        except OSError:
            pass
    if exit_status is None:
        _, exit_status = os.waitpid(pid, 0)
    elif status == "timeout":
        status = "ok"  # the child had already exited; we were only draining
    os.close(result_r)
    os.close(out_r)
    shutil.rmtree(workdir, ignore_errors=True)
    info = {"type": "result", "status": status, "wall_s": time.monotonic() - start,
            "output": output.decode("utf-8", "replace"), "output_bytes": out_total,
            "exit_code": os.WEXITSTATUS(exit_status) if os.WIFEXITED(exit_status) else None,
            "signal": os.WTERMSIG(exit_status) if os.WIFSIGNALED(exit_status) else None}
    return info, bytes(result)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m grader.worker")
    parser.add_argument("--protect", action="append", default=[])
    parser.add_argument("--without", action="append", default=[], choices=sandbox.LAYERS)
    args = parser.parse_args(argv)
    sandbox.DISABLED.update(args.without)
    protected = [os.path.realpath(p) for p in args.protect] or [os.getcwd()]
    missing = preload()
    ro_paths = sandbox.read_only_paths(protected)
    # Keep the protocol on private fds; stray prints from this process go to stderr.
    fin, fout = os.dup(0), os.dup(1)
    os.dup2(2, 1)
    devnull = os.open("/dev/null", os.O_RDONLY)
    os.dup2(devnull, 0)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    probe, _ = run_job({"limits": {}}, codec.pack({"source": PROBE_SOURCE, "cases": []}),
                       protected, ro_paths)
    level = {}
    frames = codec.split_frames(_)
    if frames:
        first = codec.unpack(frames[0])
        level = first.get("level", {}) if isinstance(first, dict) else {}
    level["summary"] = sandbox.summarize(level)
    level["preload_missing"] = missing
    send(fout, {"type": "ready", "pid": os.getpid(), "level": level, "probe": probe["status"]})
    while True:
        try:
            control = codec.unpack(read_frame(fin))
            payload = read_raw(fin)
        except EOFError:
            return
        info, raw = run_job(control, payload, protected, ro_paths)
        send(fout, info, raw)


if __name__ == "__main__":
    main()
