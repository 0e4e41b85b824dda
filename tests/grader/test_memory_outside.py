"""Memory a job could hold outside its address space (red team, issue 29 item 10).

RLIMIT_AS does not count a memfd's pages: a job refused a 1 GiB bytearray held 885 MiB of host
shared memory in 60 memfds, and 1,770 MiB with both workers running it. The sandbox refuses
every route to such memory (memfd_create, memfd_secret, SysV/POSIX shm, /dev/shm and /tmp files,
bigger pipe buffers); its one writable place is a size-capped tmpfs, taken off the
address-space budget and gone when the job ends. The host's shared memory stays flat.
"""

from __future__ import annotations

import ast
import os
import resource
import threading
import time

from grader.exercises import get
from grader.sandbox import confine as sandbox
from grader.spec import JobLimits

EX = get("manual-attention")
MiB = 1 << 20
MARGIN_MIB = 64  # the tmpfs (16 MiB) plus noise from the rest of the host

# The finding as reported: the bytearray is refused, then memfds take the memory instead.
# Uncaught, so the job must end with the grader's own words, at once.
MEMFD_BOMB = """
import os
try:
    bytearray(1 << 30)
except MemoryError:
    pass
held = []
for i in range(60):
    fd = os.memfd_create("m%d" % i)
    os.posix_fallocate(fd, 0, 15 << 20)
    held.append(fd)
import time
time.sleep(1)
"""

# Every other route, each caught: the job prints how many MiB it held where.
EVERY_ROUTE = r'''
import ctypes, fcntl, mmap, os
libc = ctypes.CDLL(None, use_errno=True)
held = {}
keep = []

def memfd_fallocate():
    fd = os.memfd_create("a"); keep.append(fd)
    os.posix_fallocate(fd, 0, 64 << 20)
    return 64 << 20

def memfd_mmap():
    fd = os.memfd_create("b"); keep.append(fd)
    os.ftruncate(fd, 8 << 20)
    m = mmap.mmap(fd, 8 << 20); m[:] = b"x" * (8 << 20); m.close()
    return 8 << 20

def memfd_secret():
    fd = libc.syscall(447, 0)
    if fd < 0:
        raise OSError(ctypes.get_errno(), "memfd_secret")
    keep.append(fd)
    return 0

def sysv_shm():
    shmid = libc.shmget(0, 64 << 20, 0o1600)
    if shmid < 0:
        raise OSError(ctypes.get_errno(), "shmget")
    return 64 << 20

def files(d):
    def write():
        total = 0
        with open(os.path.join(d, "hog"), "wb") as f:
            for _ in range(64):
                f.write(b"x" * (1 << 20)); total += 1 << 20
        return total
    return write

def pipe_buffer():
    r, w = os.pipe(); keep.extend((r, w))
    fcntl.fcntl(w, 1031, 1 << 20)  # F_SETPIPE_SZ
    return 1 << 20

routes = {"memfd_fallocate": memfd_fallocate, "memfd_mmap": memfd_mmap,
          "memfd_secret": memfd_secret, "sysv_shm": sysv_shm, "pipe_buffer": pipe_buffer,
          "dev_shm": files("/dev/shm"), "tmp": files("/tmp"), "workdir": files(".")}
for name, route in routes.items():
    try:
        held[name] = route() >> 20
    except OSError as exc:
        held[name] = exc.errno
print("HELD", sorted(held.items()))
'''


def _shmem_mib() -> int:
    with open("/proc/meminfo") as f:
        return next(int(line.split()[1]) // 1024 for line in f if line.startswith("Shmem:"))


def _graded_watching_shmem(fn):
    """Run ``fn`` while sampling host Shmem; return its result, the peak growth, the growth
    after, and how long it took."""
    base = _shmem_mib()
    peak, stop = [base], threading.Event()

    def watch():
        while not stop.is_set():
            peak[0] = max(peak[0], _shmem_mib())
            stop.wait(0.01)

    t = threading.Thread(target=watch)
    t.start()
    t0 = time.monotonic()
    try:
        result = fn()
    finally:
        elapsed = time.monotonic() - t0
        stop.set()
        t.join()
    return result, peak[0] - base, _shmem_mib() - base, elapsed


def test_memfd_bomb_is_refused_and_host_shmem_stays_flat(grader):
    report, peak, after, elapsed = _graded_watching_shmem(lambda: grader.grade(EX.id, MEMFD_BOMB))
    assert peak < MARGIN_MIB and after < MARGIN_MIB, (peak, after)
    assert report.status == "load_error" and report.score == 0, report.status
    assert "not allow" in report.tests[0].message["en"], report.tests[0].message["en"]
    assert elapsed < 10, elapsed  # a clear failure, not a hang (the sleep is never reached)
    assert grader.grade(EX.id, EX.reference_source()).full_marks


def test_no_route_holds_memory_outside_the_limit(grader):
    report, peak, after, _ = _graded_watching_shmem(lambda: grader.run_examples(EX.id, EVERY_ROUTE))
    line = next(x for x in report.output.splitlines() if x.startswith("HELD"))
    held = dict(ast.literal_eval(line[len("HELD "):]))
    eperm, eacces, efbig = 1, 13, 27
    assert held == {"memfd_fallocate": eperm, "memfd_mmap": eperm, "memfd_secret": eperm,
                    "sysv_shm": eperm, "pipe_buffer": eperm, "dev_shm": eacces, "tmp": eacces,
                    "workdir": efbig}, held
    # The workdir's tmpfs held at most its cap while the job ran, and nothing once it ended.
    assert sandbox.TMPFS_BYTES // MiB <= 16 and peak < MARGIN_MIB, peak
    assert after < MARGIN_MIB // 4, after


def test_tmpfs_is_taken_off_the_address_space_budget():
    """Address space plus tmpfs stay within memory_mib (checked in a forked child: rlimits stick)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            vm = sandbox.vm_size_bytes()
            sandbox.apply_rlimits(JobLimits(), as_root=False, held_outside=sandbox.TMPFS_BYTES)
            os.write(w, str(resource.getrlimit(resource.RLIMIT_AS)[0] - vm).encode())
        finally:
            os._exit(0)
    os.close(w)
    got = os.read(r, 64)
    os.close(r)
    os.waitpid(pid, 0)
    assert int(got) == JobLimits().memory_mib * MiB - sandbox.TMPFS_BYTES
