"""Trusted-side handle on warm workers: start with a scrubbed environment, send jobs, restart on death."""

from __future__ import annotations

import json
import os
import queue
import struct
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path

from grader import codec
from grader.spec import Job, Limits

REPO_ROOT = Path(__file__).resolve().parent.parent
_RAW = struct.Struct(">Q")
# The only variables a worker gets: no tokens or secrets can reach its memory.
SAFE_ENV = {"LANG": "C.UTF-8", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
            "OPENBLAS_NUM_THREADS": "1"}


@dataclass
class RawResult:
    """What one sandboxed run sent back: its messages (decoded safely) and how it ended."""

    status: str
    messages: list = field(default_factory=list)
    output: str = ""
    output_bytes: int = 0
    exit_code: int | None = None
    signal: int | None = None
    wall_s: float = 0.0
    malformed: bool = False


class WorkerError(RuntimeError):
    """The worker process itself failed (not the submission)."""


class Worker:
    """One warm worker process. Not thread-safe on its own: ``WorkerPool`` serialises access."""

    def __init__(self, protected: list[str] | None = None, debug: bool = False,
                 without: tuple[str, ...] = ()) -> None:
        self.protected = [str(p) for p in (protected or [REPO_ROOT])]
        self.without = tuple(without)  # sandbox layers to leave off (tests only)
        self.debug = debug
        self.proc: subprocess.Popen | None = None
        self.level: dict = {}
        self.restarts = -1

    def start(self) -> None:
        """Start the process (if not already spawned) and wait until it reports ready."""
        if self.proc is None or self.proc.poll() is not None:
            self.spawn()
        ready = self._read_message()
        if not isinstance(ready, dict) or ready.get("type") != "ready":
            raise WorkerError("worker did not start")
        self.level = ready.get("level", {})

    def spawn(self) -> None:
        """Launch the worker process without waiting for it (it imports torch meanwhile)."""
        env = dict(SAFE_ENV, PATH=os.environ.get("PATH", "/usr/bin:/bin"))
        cmd = [sys.executable, "-E", "-s", "-m", "grader.worker"]
        for p in self.protected:
            cmd += ["--protect", p]
        for layer in self.without:
            cmd += ["--without", layer]
        self.proc = subprocess.Popen(
            cmd, env=env, cwd=str(REPO_ROOT), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=None if self.debug else subprocess.DEVNULL, bufsize=0, close_fds=True,
        )
        self.restarts += 1

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def close(self) -> None:
        if self.proc is not None:
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=2)
            except Exception:
                self.proc.kill()
                self.proc.wait()
            self.proc = None

    def _read_exact(self, n: int) -> bytes:
        data = self.proc.stdout.read(n) if n else b""
        while len(data) < n:
            more = self.proc.stdout.read(n - len(data))
            if not more:
                raise WorkerError("worker closed its pipe")
            data += more
        return data

    def _read_message(self):
        head = self._read_exact(4)
        (hlen,) = struct.unpack(">I", head)
        header = self._read_exact(hlen)
        blobs = json.loads(header)["blobs"]
        return codec.unpack(head + header + self._read_exact(sum(blobs)))

    def run(self, job: Job) -> RawResult:
        """Run one job; restart the worker and retry once if it died."""
        for attempt in (0, 1):
            if not self.alive():
                self.close()
                self.start()
            try:
                return self._run_once(job)
            except (WorkerError, BrokenPipeError, OSError, codec.CodecError):
                self.close()
                if attempt:
                    raise WorkerError("the grading worker failed twice on this submission") from None
        raise AssertionError("unreachable")

    def _run_once(self, job: Job) -> RawResult:
        control = codec.pack({"limits": job.limits.__dict__})
        payload = codec.pack({"source": job.source, "cases": job.cases})
        self.proc.stdin.write(control + _RAW.pack(len(payload)) + payload)
        info = self._read_message()
        (n,) = _RAW.unpack(self._read_exact(8))
        raw = self._read_exact(n)
        result = RawResult(status=info["status"], output=info["output"],
                           output_bytes=info["output_bytes"], exit_code=info["exit_code"],
                           signal=info["signal"], wall_s=info["wall_s"])
        frames = codec.split_frames(raw)
        consumed = sum(len(f) for f in frames)
        result.malformed = consumed != len(raw)
        for frame in frames:
            try:
                result.messages.append(codec.unpack(frame))
            except codec.CodecError:
                result.malformed = True
                break
        return result


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
            self._started = True

    @property
    def level(self) -> dict:
        self.start()
        return dict(self.workers[0].level)

    def run(self, job: Job) -> RawResult:
        self.start()
        worker = self._free.get()
        try:
            return worker.run(job)
        finally:
            self._free.put(worker)

    def close(self) -> None:
        for w in self.workers:
            w.close()
        self._started = False
        self._free = queue.Queue()


__all__ = ["Limits", "RawResult", "Worker", "WorkerError", "WorkerPool"]
