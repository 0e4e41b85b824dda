"""Trusted-side handle on warm zygotes: start them scrubbed, hand each job its own pipes, read back
what the child wrote within fixed bounds, and never retry a job that killed its worker."""

from __future__ import annotations

import json
import os
import queue
import secrets
import select
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from grader.paths import REPO_ROOT
from grader.sandbox import codec, messages
from grader.sandbox import confine as sandbox
from grader.sandbox.jobs import Job, JobLimits
from grader.sandbox.results import RawResult

# The only variables a worker gets: no tokens, secrets or host PATH can reach its memory.
SAFE_ENV = {"LANG": "C.UTF-8", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
            "OPENBLAS_NUM_THREADS": "1"}
MAX_CONTROL = 1 << 16
HANG_GRACE_S = 10.0  # past the wall limit plus this, the worker itself is judged hung


class WorkerError(RuntimeError):
    """The worker process itself failed (not the submission)."""


class SandboxUnavailable(RuntimeError):
    """The host's confinement is below the required level: the grader will not run learner code."""


class Worker:
    """One warm zygote process. Not thread-safe on its own: ``WorkerPool`` serialises access."""

    def __init__(self, protected: list[str] | None = None, debug: bool = False,
                 without: tuple[str, ...] = ()) -> None:
        self.protected = [str(p) for p in (protected or [REPO_ROOT])]
        self.without = tuple(without)  # sandbox layers to leave off (tests only)
        self.debug = debug
        self.proc: subprocess.Popen | None = None
        self.sock: socket.socket | None = None
        self.level: dict = {}
        self.restarts = -1
        self._seq = 0

    def start(self) -> None:
        """Start the process (if not already spawned) and wait until it reports ready."""
        if self.proc is None or self.proc.poll() is not None:
            self.spawn()
        try:
            ready = json.loads(self.sock.recv(MAX_CONTROL) or b"null")
        except (OSError, ValueError):
            ready = None
        if not isinstance(ready, dict) or ready.get("type") != "ready":
            self.close()
            raise WorkerError("worker did not start")
        self.level = ready.get("level", {})

    def spawn(self) -> None:
        """Launch the worker process without waiting for it (it imports torch meanwhile)."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        cmd = [sys.executable, "-E", "-s", "-m", "grader.sandbox.worker", "--control-fd", str(theirs.fileno())]
        for p in self.protected:
            cmd += ["--protect", p]
        for layer in self.without:
            cmd += ["--without", layer]
        cmd += ["--tmpdir", tempfile.gettempdir()]
        try:
            self.proc = subprocess.Popen(
                cmd, env=dict(SAFE_ENV), cwd=str(REPO_ROOT), stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=None if self.debug else subprocess.DEVNULL,
                close_fds=True, pass_fds=(theirs.fileno(),),
            )
        finally:
            theirs.close()
        self.sock = ours
        self.restarts += 1

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()  # the zygote ends itself (and any job) when its socket closes
            self.sock = None
        if self.proc is not None:
            try:
                self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.proc.kill(), self.proc.wait()
            _remove_mount_point(self.proc.pid)  # a zygote that was killed could not
            self.proc = None

    def run(self, job: Job, minimum: str) -> tuple[RawResult, bytes]:
        """Run one job. A worker that was already dead is restarted first; a job during which
        the worker died is judged crashed and never retried (it may be what killed it)."""
        if not self.alive():
            self.close()
            self.start()
        pipes = [os.pipe() for _ in range(3)]  # payload, result, output
        theirs = (pipes[0][0], pipes[1][1], pipes[2][1])
        self._seq = secrets.randbits(62) | 1 << 61  # a child may read it: no count of jobs
        msg = {"type": "job", "id": self._seq, "limits": job.limits.__dict__, "minimum": minimum}
        try:
            try:
                socket.send_fds(self.sock, [json.dumps(msg).encode()], list(theirs))
            except OSError:  # died while idle: no child ran, so one fresh start is fair
                self.close()
                self.start()
                socket.send_fds(self.sock, [json.dumps(msg).encode()], list(theirs))
        except OSError:
            for r, w in pipes:
                os.close(r), os.close(w)
            self.close()
            raise WorkerError("the grading worker could not be started") from None
        for fd in theirs:
            os.close(fd)
        frames = (codec.pack({"source": job.source}), codec.pack({"cases": job.cases}))
        raw, data = _collect(self.sock, self._seq, frames, pipes[0][1], pipes[1][0], pipes[2][0],
                             job.limits)
        if raw.worker_died:
            self.close()
            self.spawn()  # warm up the replacement while nobody waits
        return raw, data


def _remove_mount_point(pid: int) -> None:
    """Remove a dead zygote's empty mount-point folders (rmdir only: never anything inside)."""
    for base in Path(tempfile.gettempdir()).glob(f"lab-zygote-{pid}-*"):
        for path in (base / "job", base):
            try:
                path.rmdir()
            except OSError:
                pass


def _collect(sock: socket.socket, job_id: int, frames: tuple[bytes, bytes], payload_w: int,
             result_r: int, out_r: int, limits: JobLimits) -> tuple[RawResult, bytes]:
    """Feed the payload and read the child's bytes within their caps until the zygote says the
    child has ended. Memory held here never exceeds result_bytes + output_bytes.

    The payload goes in two frames: the source, and, only once the child has reported
    "loaded", the cases. Whatever sits in the output pipe at that moment was printed before any
    hidden input existed in the child: that is the output a learner may always see.
    """
    os.set_blocking(payload_w, False), os.set_blocking(out_r, False)
    pending, cases = memoryview(frames[0]), frames[1]
    result, output = bytearray(), bytearray()
    out_total, status, exit_info = 0, "ok", None
    scanned, wanted, load_output = 0, 1, None  # scan again once the result holds `wanted` bytes
    reading = {result_r, out_r}
    hard_deadline = time.monotonic() + limits.wall_s + HANG_GRACE_S
    drain_until = None

    def kill(reason: str) -> None:
        try:
            sock.send(json.dumps({"type": "kill", "id": job_id, "reason": reason}).encode())
        except OSError:
            pass

    def read_output() -> bool:
        """Take what the output pipe holds now; False once it is closed or over its cap."""
        nonlocal out_total, status
        while True:
            try:
                chunk = os.read(out_r, 1 << 16)
            except BlockingIOError:
                return True
            if not chunk:
                return False
            out_total += len(chunk)
            if len(output) < limits.output_bytes:
                output.extend(chunk[: limits.output_bytes - len(output)])
            if out_total > limits.output_hard_bytes:
                status = "output_limit"
                kill(status)
                return False

    try:
        while exit_info is None or (reading and time.monotonic() < drain_until):
            now = time.monotonic()
            if exit_info is None and now > hard_deadline:
                exit_info = {"status": "hung"}
                break
            writers = [payload_w] if pending and payload_w >= 0 else []
            watch = list(reading) + ([sock] if exit_info is None else [])
            limit = (drain_until or hard_deadline) - now
            ready_r, ready_w, _ = select.select(watch, writers, [], max(0.0, min(limit, 1.0)))
            if ready_w:
                try:
                    pending = pending[os.write(payload_w, pending[: 1 << 16]):]
                except (BrokenPipeError, BlockingIOError):
                    pass
                if not pending and cases is None:
                    os.close(payload_w)
                    payload_w = -1
            for fd in ready_r:
                if fd is sock:
                    data = sock.recv(MAX_CONTROL)
                    if not data:
                        exit_info = {"status": "worker_died"}
                    else:
                        info = json.loads(data)
                        if info.get("type") != "exit" or info.get("id") != job_id:
                            continue
                        exit_info = info
                    drain_until = time.monotonic() + 0.5
                elif fd == out_r:
                    if not read_output():
                        reading.discard(fd)
                else:
                    chunk = os.read(fd, 1 << 16)
                    if not chunk:
                        reading.discard(fd)
                    elif len(result) + len(chunk) > limits.result_bytes:
                        status = "result_limit"
                        reading.discard(fd)
                        kill(status)
                    else:
                        result += chunk
            if cases is not None and status == "ok" and len(result) >= wanted:
                try:
                    kinds, scanned, wanted = messages.scan(bytes(result), scanned)
                except messages.Malformed:
                    kinds = ["malformed"]
                if "loaded" in kinds:
                    read_output()  # everything printed while loading, and nothing after
                    load_output = bytes(output)
                    pending = memoryview(bytes(pending) + cases)
                    cases = None
                elif kinds and set(kinds) - {"sandbox"}:
                    cases = None  # a load error, or nonsense: the hidden inputs are never sent
                    if not pending and payload_w >= 0:
                        os.close(payload_w)
                        payload_w = -1
    finally:
        for fd in (payload_w, result_r, out_r):
            if fd >= 0:
                os.close(fd)
    exit_info = exit_info or {}
    died = exit_info.get("status") in ("worker_died", "hung")
    if status == "ok":
        status = "crashed" if died else str(exit_info.get("status", "ok"))
    text = output.decode("utf-8", "replace")
    raw = RawResult(status=status, output=text, output_bytes=out_total,
                    exit_code=exit_info.get("exit_code"), signal=exit_info.get("signal"),
                    wall_s=float(exit_info.get("wall_s", 0.0)), worker_died=died,
                    load_output=text if load_output is None else load_output.decode("utf-8", "replace"))
    return raw, bytes(result)


class WorkerPool:
    """A fixed set of warm workers shared by threads; each job borrows one worker."""

    def __init__(self, size: int = 1, protected: list[str] | None = None, debug: bool = False,
                 without: tuple[str, ...] = ()):
        if size < 1:
            raise ValueError("a worker pool needs at least one worker")
        self.workers = [Worker(protected, debug, without) for _ in range(size)]
        self._free: queue.Queue[Worker] = queue.Queue()
        self._lock = threading.Lock()
        self._started = False
        self.minimum = sandbox.FLOOR
        self._config_error: str | None = None  # LAB_SANDBOX_MIN that is no level

    def spawn(self) -> None:
        """Launch every worker process now; ``start`` later waits for them."""
        with self._lock:
            for w in self.workers:
                if w.proc is None:
                    w.spawn()

    def start(self) -> None:
        with self._lock:
            if self._started:
                return
            threads = [threading.Thread(target=w.start) for w in self.workers]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            for w in self.workers:
                if not w.alive():
                    raise WorkerError("a grading worker failed to start")
                self._free.put(w)
            # Read once: a bad LAB_SANDBOX_MIN refuses every job (fails closed), never re-spawns.
            self.minimum, self._config_error = sandbox.required_or_error(
                self.workers[0].level.get("offered", "basic"))
            self._started = True

    @property
    def level(self) -> dict:
        self.start()
        return dict(self.workers[0].level, required=self.minimum)

    def refusal(self) -> str | None:
        """Why this pool must not grade (its level is below the required one), or None."""
        level = self.level
        if self._config_error:
            return f"Grading is switched off: {self._config_error}."
        if sandbox.at_least(level.get("summary", "basic"), self.minimum):
            return None
        missing = "; ".join(sandbox.missing_layers(level)) or "unknown"
        return (f"Grading is switched off: the sandbox reaches level {level.get('summary')!r} but "
                f"{self.minimum!r} is required. Missing: {missing}. To grade anyway with weaker "
                f"isolation, set LAB_SANDBOX_MIN to one of {', '.join(sandbox.LEVELS)} knowingly.")

    def run(self, job: Job) -> RawResult:
        self.start()
        reason = self.refusal()
        if reason:
            raise SandboxUnavailable(reason)
        worker = self._free.get()
        try:
            raw, data = worker.run(job, self.minimum)
        finally:
            self._free.put(worker)
        return _decode(raw, data, job, self.minimum)

    def close(self) -> None:
        for w in self.workers:
            w.close()
        self._started = False
        self._free = queue.Queue()


def _decode(raw: RawResult, data: bytes, job: Job, minimum: str) -> RawResult:
    """Attach the child's checked messages; any deviation marks the run malformed."""
    if raw.status == "result_limit":
        return raw
    try:
        raw.messages = messages.decode(data, [len(steps) for steps in job.cases])
    except messages.Malformed as exc:
        if data or raw.status == "ok":
            raw.malformed, raw.malformed_reason = True, str(exc)[:200]
        return raw
    summary = raw.messages[0]["level"].get("summary")
    if not sandbox.at_least(str(summary or "basic"), minimum):
        raise SandboxUnavailable(f"a grading child reached only level {summary!r}")
    return raw


__all__ = ["JobLimits", "RawResult", "SandboxUnavailable", "Worker", "WorkerError", "WorkerPool"]
