"""The trust boundary under real attacks: no job sees another's data, nothing outlives a job, the
trusted side bounds what it reads, and cleanup cannot be turned against the worker."""

from __future__ import annotations

import os
import secrets
import time
import tracemalloc
from pathlib import Path

import pytest

from grader.exercises import get

EX = get("manual-attention")
REF = EX.reference_source()

# Looks for another learner's marker in every place a forked child could inherit it from: the
# frames above it, every object the GC tracks, and raw memory around its heap and mappings
# (read through write(2) into a pipe, which fails with EFAULT on unmapped pages instead of
# crashing). Its own canary proves the search works.
SCANNER = r'''
import ctypes, gc, os, sys
PREFIX = b"MARK" + b"ER-"
found = set()
def look(data):
    if isinstance(data, str):
        data = data.encode("utf-8", "replace")
    elif not isinstance(data, (bytes, bytearray)):
        return
    i = data.find(PREFIX)
    while i >= 0:
        found.add(bytes(data[i:i + 40]).split(b"\n")[0].decode("latin-1"))
        i = data.find(PREFIX, i + 1)
def look_in(value):
    look(value)
    if isinstance(value, dict):
        value = list(value.keys()) + list(value.values())
    if isinstance(value, (list, tuple)):
        for item in value[:100_000]:
            look(item)
CANARY = (PREFIX + b"self-" + str(os.getpid()).encode()).decode()
f = sys._getframe()
while f is not None:
    for v in list(f.f_locals.values()) + list(f.f_globals.values()):
        if v is not found:
            look_in(v)
    f = f.f_back
for o in gc.get_objects():
    if o is not found:
        look_in(o)
libc = ctypes.CDLL(None, use_errno=True)
r, w = os.pipe()
CHUNK = 1 << 16
big = bytearray(8 << 20)
for base in {id(object()), id(big), id(sys), id(gc.get_objects)}:
    start = (base & ~(CHUNK - 1)) - (32 << 20)
    for addr in range(max(start, CHUNK), start + (64 << 20), CHUNK):
        n = libc.write(w, ctypes.c_void_p(addr), CHUNK)
        if n > 0:
            look(os.read(r, n))
print("FOUND", sorted(found))
'''


def _marked_reference(marker: str) -> str:
    return f"# {marker}\n{REF}\nprint({marker!r})\n"


def test_no_job_finds_an_earlier_learners_code_or_results(grader):
    secret = "MARKER-" + secrets.token_hex(8)
    alice = grader.grade(EX.id, _marked_reference(secret), learner="alice")
    assert alice.full_marks
    # Hidden runs do not show output (it could carry hidden inputs); the public examples run
    # the same code in the same kind of child and show it.
    mallory = grader.run_examples(EX.id, SCANNER)
    assert "FOUND" in mallory.output, (mallory.status, mallory.output[-2000:])
    assert "MARKER-self-" in mallory.output  # the scanner does find what is in its memory
    assert secret not in mallory.output
    assert grader.grade(EX.id, SCANNER, learner="mallory").score == 0


def _write_frames(*bodies: str) -> str:
    """Learner code that writes raw frames to the result channel (fd 3), then exits cleanly."""
    lines = ["import os, struct, json, sys"]
    for body in bodies:
        lines.append(f"h = {body}")
        lines.append("os.write(3, struct.pack('>I', len(h)) + h)")
    lines.append("sys.stdout.flush()\nos._exit(0)")
    return "\n".join(lines) + "\n"


FORGED = {
    "error that is a string": _write_frames(
        """json.dumps({"body": {"__dict": {"kind": "case", "index": 0, "records": [{"__dict": {"error": "boom"}}]}}, "blobs": []}).encode()"""),
    "case index out of range": _write_frames(
        """json.dumps({"body": {"__dict": {"kind": "case", "index": 999, "records": []}}, "blobs": []}).encode()"""),
    "a blob used twice": _write_frames(
        """json.dumps({"body": [{"__t": 0, "dtype": "uint8", "shape": [4]}, {"__t": 0, "dtype": "uint8", "shape": [4]}], "blobs": [4]}).encode() + b"abcd\""""),
    "unknown message kind": _write_frames(
        """json.dumps({"body": {"__dict": {"kind": "score", "value": 9}}, "blobs": []}).encode()"""),
}


@pytest.mark.parametrize("name", list(FORGED))
def test_forged_records_are_judged_malformed(grader, name):
    report = grader.grade(EX.id, REF + "\n" + FORGED[name])
    assert report.status == "malformed", (report.status, report.tests[0].message)
    assert report.score == 0 and report.tests[0].message["zh"]


BOMBS = {
    # 63 MiB of empty lists in one frame: read no further than the result cap, then killed.
    "63 MiB frame": "b'{\"body\": [' + b'[],' * (21 << 20) + b'[]], \"blobs\": []}'",
    # Under the byte cap but a 3.5 MiB header: refused before parsing.
    "3.5 MiB header": "b'{\"body\": [' + b'[],' * (1200 << 10) + b'[]], \"blobs\": []}'",
    # A 0.9 MiB header of 300k empty lists: refused by the node bound before parsing.
    "300k nodes": "b'{\"body\": [' + b'[],' * 300_000 + b'[]], \"blobs\": []}'",
    # Nesting 100k deep: refused, not a RecursionError in the trusted process.
    "deep nesting": "b'{\"body\": ' + b'[' * 100_000 + b']' * 100_000 + b', \"blobs\": []}'",
}


@pytest.mark.parametrize("name", list(BOMBS))
def test_json_bombs_cost_the_trusted_side_little(grader, name):
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        report = grader.grade(EX.id, _write_frames(BOMBS[name]))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert report.score == 0
    assert report.status in ("malformed", "crashed"), report.status
    assert peak < 64 << 20, f"trusted side allocated {peak / 2**20:.0f} MiB"


def _ipc_entries() -> set[tuple[str, str]]:
    """Every SysV IPC object on the host (other programs may remove theirs meanwhile; a job
    must never add one)."""
    out = set()
    for kind in ("shm", "msg", "sem"):
        for line in Path(f"/proc/sysvipc/{kind}").read_text().splitlines()[1:]:
            key, ident = line.split()[:2]
            out.add((kind, f"{key}/{ident}"))
    return out


IPC_ATTACK = r'''
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
IPC_CREAT = 0o1000
out = {
    "shmget": libc.shmget(0x1ab5, 256 << 20, IPC_CREAT | 0o666),
    "msgget": libc.msgget(0x1ab6, IPC_CREAT | 0o666),
    "semget": libc.semget(0x1ab7, 1, IPC_CREAT | 0o666),
    "mq_open": libc.mq_open(b"/lab-answers", os.O_CREAT | os.O_RDWR, 0o666, None),
}
try:
    open("/dev/shm/lab-answers", "w").write("x")
    out["dev_shm"] = 0
except OSError:
    out["dev_shm"] = -1
print("IPC", sorted(out.items()))
'''


def test_no_ipc_object_can_be_made_or_outlive_a_job(grader):
    before = _ipc_entries()
    report = grader.run_examples(EX.id, IPC_ATTACK)
    line = next(x for x in report.output.splitlines() if x.startswith("IPC"))
    assert line == "IPC [('dev_shm', -1), ('mq_open', -1), ('msgget', -1), ('semget', -1), ('shmget', -1)]"
    assert _ipc_entries() - before == set()
    assert not Path("/dev/shm/lab-answers").exists()


def test_seccomp_alone_refuses_ipc_when_namespaces_are_off(monkeypatch):
    """Layers hold on their own: with no private IPC namespace, seccomp still refuses SysV/POSIX IPC."""
    from grader.api import Grader, protected_paths
    from grader.sandbox.pool import WorkerPool

    monkeypatch.setenv("LAB_SANDBOX_MIN", "full")
    before = _ipc_entries()
    with Grader(pool=WorkerPool(protected=protected_paths(), without=("namespaces",))) as g:
        assert g.sandbox_level()["namespaces"] is False
        report = g.run_examples(EX.id, IPC_ATTACK)
    assert "('shmget', -1)" in report.output and "('mq_open', -1)" in report.output
    assert _ipc_entries() - before == set()


def _tmp_entries() -> set[str]:
    """Entries in /tmp a job could have left: owned by `nobody`, or named as the attacks name
    their files (other programs on a shared machine add their own entries meanwhile)."""
    out = set()
    for entry in os.scandir("/tmp"):
        try:
            if entry.stat(follow_symlinks=False).st_uid == 65534 or entry.name in ATTACK_NAMES:
                out.add(entry.name)
        except OSError:
            pass
    return out


ATTACK_NAMES = {"d", "f0", "f1", "big", "scratch.txt", "lab-answers"}


CLEANUP_ATTACKS = {
    "3000-deep folders": "import os\nfor _ in range(3000):\n    os.mkdir('d')\n    os.chdir('d')\n",
    "146k empty files": "for i in range(146_000):\n    open(f'f{i}', 'w').close()\n",
    "128 MiB file": "with open('big', 'wb') as f:\n    for _ in range(128):\n        f.write(b'x' * (1 << 20))\n",
}


@pytest.mark.parametrize("name", list(CLEANUP_ATTACKS))
def test_workdir_attacks_leave_nothing_and_never_kill_the_worker(grader, name):
    worker = grader.pool.workers[0]
    pid, restarts = worker.proc.pid, worker.restarts
    before = _tmp_entries()
    t0 = time.monotonic()
    report = grader.grade(EX.id, CLEANUP_ATTACKS[name] + REF)
    elapsed = time.monotonic() - t0
    assert report.score == 0 and report.status in ("load_error", "crashed"), report.status
    assert report.tests[0].message["en"]
    # The wall limit (2 s here) plus grading; a shared, loaded machine gets 3 s of slack. The
    # tmpfs caps (16 MiB, 1024 inodes) bound what the kernel tears down whatever the load.
    assert elapsed < 2.0 + 3.0, elapsed
    assert (worker.proc.pid, worker.restarts) == (pid, restarts)
    assert _tmp_entries() - before == set()
    assert grader.grade(EX.id, REF).full_marks


def test_writing_a_small_file_in_the_workdir_still_works(grader):
    src = "open('scratch.txt', 'w').write('ok')\nprint(open('scratch.txt').read())\n" + REF
    assert grader.grade(EX.id, src).full_marks
    assert "ok" in grader.run_examples(EX.id, src).output


def test_a_job_that_kills_its_worker_is_crashed_not_retried(grader):
    """The zygote is the child's parent: the child cannot signal it (seccomp, Landlock scope), so
    simulate the worst case from outside, mid-job, and check the job is judged, not re-run."""
    import threading

    worker = grader.pool.workers[0]
    victim = worker.proc.pid
    timer = threading.Timer(0.5, lambda: os.kill(victim, 9))
    timer.start()
    report = grader.run_examples(EX.id, "import time\nprint('ran', flush=True)\ntime.sleep(1.5)\n" + REF)
    timer.join()
    assert report.status == "crashed" and report.score == 0
    assert report.output.count("ran") == 1  # not retried on a fresh worker
    assert grader.grade(EX.id, REF).full_marks
    assert worker.proc.pid != victim


# Looks, while the module loads, for the job's steps anywhere up the stack or in the GC's reach.
LOAD_TIME_LOOK = r'''
import gc, sys
def is_steps(v):
    return isinstance(v, list) and any(isinstance(s, dict) and "op" in s for s in v[:50])
found = 0
f = sys._getframe()
while f is not None:
    for v in list(f.f_locals.values()):
        if isinstance(v, dict) and isinstance(v.get("cases"), list):
            found += 1
        if isinstance(v, list) and any(is_steps(c) for c in v[:50]):
            found += 1
    f = f.f_back
found += sum(1 for o in gc.get_objects() if is_steps(o))
raise ValueError(f"load-time look found={found} my-own-words")
'''


def test_loading_code_sees_no_hidden_case_and_its_error_is_shown_in_full(grader):
    report = grader.grade(EX.id, LOAD_TIME_LOOK)
    assert report.status == "load_error"
    message = report.tests[0].message["en"]
    assert "found=0" in message and "my-own-words" in message, message
