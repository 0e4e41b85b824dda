"""Kernel-level confinement of a forked child: namespaces, rlimits, non-root user, Landlock, seccomp."""

from __future__ import annotations

import ctypes
import errno
import os
import resource
import signal
import struct
import sys

from grader.paths import SANDBOX_LEVELS, GraderSettings
from grader.sandbox import seccomp
from grader.sandbox.jobs import JobLimits

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long
_libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]

PR_SET_NO_NEW_PRIVS = 38
PR_SET_DUMPABLE = 4
PR_SET_PDEATHSIG = 1
NOBODY = 65534

# Landlock (include/uapi/linux/landlock.h); the syscall numbers are the same on x86_64 and arm64.
SYS_LANDLOCK_CREATE_RULESET, SYS_LANDLOCK_ADD_RULE, SYS_LANDLOCK_RESTRICT_SELF = 444, 445, 446
LL_EXECUTE, LL_WRITE_FILE, LL_READ_FILE, LL_READ_DIR = 1, 2, 4, 8
LL_FS_BY_ABI = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 4: (1 << 15) - 1,
                5: (1 << 16) - 1}
LL_NET_ALL = 3  # bind and connect TCP (ABI >= 4)
LL_SCOPE_ALL = 3  # abstract unix sockets and signals outside the domain (ABI >= 6)
LL_READ_ONLY = LL_EXECUTE | LL_READ_FILE | LL_READ_DIR
LL_FILE_RIGHTS = LL_EXECUTE | LL_WRITE_FILE | LL_READ_FILE | (1 << 14) | (1 << 15)


def _fail(what: str) -> OSError:
    err = ctypes.get_errno()
    return OSError(err, f"{what}: {os.strerror(err)}")


def landlock_abi() -> int:
    """The Landlock ABI version the kernel offers, 0 when unavailable."""
    abi = _libc.syscall(SYS_LANDLOCK_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    return max(int(abi), 0)


def apply_landlock(read_only: list[str], read_write: list[str], max_abi: int | None = None) -> int:
    """Allow reading only ``read_only`` and writing only ``read_write``; returns the ABI used
    (at most ``max_abi``: tests mimic an older kernel with it)."""
    abi = min(landlock_abi(), max_abi or 1 << 30)
    if abi < 1:
        raise OSError(errno.ENOSYS, "Landlock is not available")
    fs = LL_FS_BY_ABI.get(abi, LL_FS_BY_ABI[5])
    attr = struct.pack("<QQQ", fs, LL_NET_ALL if abi >= 4 else 0, LL_SCOPE_ALL if abi >= 6 else 0)
    size = 8 if abi < 4 else (16 if abi < 6 else 24)
    buf = ctypes.create_string_buffer(attr[:size], size)
    ruleset = _libc.syscall(SYS_LANDLOCK_CREATE_RULESET, buf, ctypes.c_size_t(size), ctypes.c_uint32(0))
    if ruleset < 0:
        raise _fail("landlock_create_ruleset")
    try:
        for paths, rights in ((read_only, LL_READ_ONLY), (read_write, fs)):
            for path in paths:
                try:
                    fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
                except OSError:
                    continue
                try:
                    allowed = rights if os.path.isdir(path) else rights & LL_FILE_RIGHTS & fs
                    rule = ctypes.create_string_buffer(struct.pack("<Qi", allowed, fd), 12)
                    if _libc.syscall(SYS_LANDLOCK_ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(1),
                                     rule, ctypes.c_uint32(0)) < 0:
                        raise _fail(f"landlock_add_rule({path})")
                finally:
                    os.close(fd)
        if _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise _fail("prctl(NO_NEW_PRIVS)")
        if _libc.syscall(SYS_LANDLOCK_RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0)) < 0:
            raise _fail("landlock_restrict_self")
    finally:
        os.close(ruleset)
    return abi


# --- rlimits and user -----------------------------------------------------------------------
def vm_size_bytes() -> int:
    """This process's virtual size (the base for RLIMIT_AS)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 1 << 30


def apply_rlimits(limits: JobLimits, as_root: bool, held_outside: int = 0) -> None:
    """Address space, CPU seconds, file size, open files, core dumps, and processes.
    ``held_outside``: bytes the job may hold outside its address space (its tmpfs), taken off
    the address-space budget so that the two together stay within ``limits.memory_mib``."""
    mem = vm_size_bytes() + max(limits.memory_mib * (1 << 20) - held_outside, 0)
    resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
    cpu = max(1, int(limits.cpu_s))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_bytes, limits.file_bytes))
    resource.setrlimit(resource.RLIMIT_NOFILE, (limits.files, limits.files))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if as_root:  # NPROC is ignored for root and counts every process of the (shared) user
        resource.setrlimit(resource.RLIMIT_NPROC, (32, 32))


def drop_root() -> bool:
    """Become ``nobody`` when running as root; True when the switch happened."""
    if os.geteuid() != 0:
        return False
    os.setgroups([])
    os.setgid(NOBODY)
    os.setuid(NOBODY)
    return True


def read_only_paths(protected: list[str]) -> list[str]:
    """Paths the child may read: the interpreter and libraries, never an ancestor of ``protected``."""
    candidates = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
                  "/usr", "/lib", "/lib64", "/etc/ld.so.cache", "/etc/localtime",
                  "/dev/null", "/dev/urandom", "/dev/zero"}
    candidates.update(p for p in sys.path if p and os.path.isdir(p))
    prot = [os.path.realpath(p) for p in protected]
    keep = []
    for c in sorted(candidates):
        real = os.path.realpath(c)
        if not os.path.exists(real):
            continue
        if any(p == real or p.startswith(real.rstrip("/") + "/") for p in prot):
            continue  # would expose the repository, the hidden tests or the tests
        keep.append(real)
    return keep


# --- namespaces, capabilities, dumpability ---------------------------------------------------
CLONE_NEWNS, CLONE_NEWIPC, CLONE_NEWUSER = 0x00020000, 0x08000000, 0x10000000
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REC, MS_PRIVATE = 2, 4, 8, 0x4000, 1 << 18
PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, PR_CAPBSET_DROP = 47, 4, 24
# The job's only writable place: a tmpfs that dies with the child's mount namespace.
TMPFS_BYTES = 16 << 20
TMPFS_INODES = 1024
_libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong,
                        ctypes.c_char_p]


def _write(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def private_namespaces(mount_point: str, owner: int) -> None:
    """Enter private mount and IPC namespaces (in a user namespace when not root) and mount a
    size- and inode-capped tmpfs on ``mount_point``. Everything the job writes there, and every
    IPC object it could make, vanishes with its last thread: nothing is left to clean up."""
    uid, gid = os.getuid(), os.getgid()
    flags = CLONE_NEWNS | CLONE_NEWIPC | (CLONE_NEWUSER if os.geteuid() != 0 else 0)
    if _libc.unshare(ctypes.c_int(flags)) != 0:
        raise _fail("unshare")
    if flags & CLONE_NEWUSER:  # keep the same ids inside: nothing changes but who owns the mounts
        # Our /proc/self files belong to root while we are non-dumpable (inherited from the
        # zygote): open them up just long enough to write the maps.
        _libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)
        try:
            _write("/proc/self/setgroups", "deny")
            _write("/proc/self/uid_map", f"{uid} {uid} 1")
            _write("/proc/self/gid_map", f"{gid} {gid} 1")
        finally:
            _libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    if _libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None) != 0:
        raise _fail("mount --make-rprivate /")
    opts = f"size={TMPFS_BYTES},nr_inodes={TMPFS_INODES},mode=0700,uid={owner},gid={owner}"
    if _libc.mount(b"lab-job", mount_point.encode(), b"tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
                   opts.encode()) != 0:
        raise _fail("mount tmpfs")


def drop_capabilities() -> bool:
    """Clear every capability (ambient, bounding where allowed, effective/permitted/inheritable);
    True when none is left in effect."""
    prctl = _libc.prctl
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    for cap in range(64):
        if prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            break  # past the last capability, or not allowed (then the capset below still runs)
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    data = (ctypes.c_uint32 * 6)()
    _libc.capset(header, data)
    with open("/proc/self/status") as f:
        eff = next((line.split()[1] for line in f if line.startswith("CapEff:")), "1")
    return int(eff, 16) == 0


def set_undumpable() -> None:
    """Make this process's /proc files (environ, mem, maps...) root-only and refuse ptrace, so a
    same-uid sandboxed child cannot read the app's or the worker's secrets through them."""
    _libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)


# --- levels ----------------------------------------------------------------------------------
# Weakest to strongest. "isolated" is the floor: no network, no exec, no IPC, no reads outside
# the job. "full" adds a non-root uid; "strict" adds private namespaces (capped tmpfs workdir)
# and Landlock's signal scoping (ABI 6, kernel 6.12): below it only seccomp keeps signals in,
# and the log must not say "strict" there (issue 19, F3).
LEVELS = SANDBOX_LEVELS
FLOOR = "isolated"
# Layers switched off on purpose (``--without`` on the worker): to test that the grader refuses,
# and to mimic hosts that lack them. Never set in production.
DISABLED: set[str] = set()
# "landlock-scope" keeps Landlock at ABI 5: no signal or abstract-socket scoping, as on
# kernels before 6.12, where only seccomp keeps signals in (tests/grader/test_signals.py).
LAYERS = ("user", "landlock", "seccomp", "namespaces", "landlock-scope")


def level_name(level: dict) -> str:
    """The strongest of LEVELS that ``level`` (as ``confine`` reports it) reaches."""
    if not (level.get("landlock") and level.get("seccomp")):
        return "basic"
    user = str(level.get("user", ""))
    if not (user.startswith("nobody") or (user.startswith("uid") and not user.startswith("uid 0 "))):
        return "isolated"
    return "strict" if level.get("namespaces") and signal_scoped(level) else "full"


SIGNAL_SCOPE_ABI = 6  # LANDLOCK_SCOPE_SIGNAL and abstract-socket scoping


def signal_scoped(level: dict) -> bool:
    """Whether Landlock itself keeps learner code's signals inside its own domain."""
    abi = level.get("landlock")
    return isinstance(abi, int) and not isinstance(abi, bool) and abi >= SIGNAL_SCOPE_ABI


def at_least(name: str, minimum: str) -> bool:
    return LEVELS.index(name) >= LEVELS.index(minimum)


def required_level(offered: str) -> str:
    """LAB_SANDBOX_MIN if set (a deliberate choice, may be weaker), else what the host offers
    but never below FLOOR."""
    chosen = GraderSettings.read("sandbox_min")  # ValueError naming it for a bad word
    if chosen:
        return chosen
    return offered if at_least(offered, FLOOR) else FLOOR


def required_or_error(offered: str) -> tuple[str, str | None]:
    """``required_level``, or the strongest level and why LAB_SANDBOX_MIN is unusable (the
    grader then refuses every job instead of failing on each)."""
    try:
        return required_level(offered), None
    except ValueError as exc:
        return LEVELS[-1], str(exc)


def missing_layers(level: dict) -> list[str]:
    """What a level lacks, in words an operator can act on."""
    out = []
    if not level.get("landlock"):
        out.append("Landlock (file-system confinement): " + level.get("landlock_error", "switched off"))
    if not level.get("seccomp"):
        out.append("seccomp (no network, exec or IPC): " + level.get("seccomp_error", "switched off"))
    if level_name({**level, "namespaces": False}) == "isolated":
        out.append(f"a non-root user for learner code ({level.get('user')})")
    if not level.get("namespaces"):
        out.append("private mount/IPC namespaces: " + level.get("namespaces_error", "switched off"))
    if level.get("landlock") and not signal_scoped(level):
        out.append(f"Landlock signal scoping (ABI {SIGNAL_SCOPE_ABI}, kernel 6.12; ABI "
                   f"{level.get('landlock')} here): only seccomp keeps signals in (kill, tkill, "
                   "tgkill, and fcntl/ioctl owner routes are refused)")
    return out


def confine(limits: JobLimits, mount_point: str, protected: list[str], ro_paths: list[str],
            disabled: set[str] | frozenset[str] = frozenset()) -> dict:
    """Apply every layer the host allows, in order; return what was reached."""
    parent = os.getppid()
    level: dict = {"setsid": False, "rlimits": False, "user": "unchanged", "landlock": 0,
                   "seccomp": False, "namespaces": False, "caps": False}
    os.setsid()
    level["setsid"] = True
    as_root = os.geteuid() == 0
    if "namespaces" not in disabled:
        try:
            private_namespaces(mount_point, NOBODY if as_root and "user" not in disabled else os.getuid())
            level["namespaces"] = True
        except OSError as exc:
            level["namespaces_error"] = str(exc)
    os.chdir(mount_point)  # the tmpfs, or (without namespaces) an empty read-only folder
    # What the job can hold outside its address space counts against its memory too: the
    # tmpfs (host shared memory) is taken off RLIMIT_AS; memfds, SysV/POSIX shm, /dev/shm and
    # bigger pipe buffers are refused by seccomp and Landlock (issue 29 item 10).
    apply_rlimits(limits, as_root, TMPFS_BYTES if level["namespaces"] else 0)
    level["rlimits"] = True
    try:
        if "user" in disabled:
            level["user"] = f"uid {os.geteuid()} (switch disabled)"
        else:
            level["user"] = "nobody" if drop_root() else f"uid {os.geteuid()} (not root)"
    except OSError as exc:
        level["user"] = f"uid {os.geteuid()} (drop failed: {exc.strerror})"
    # Die with the zygote (set after the uid change, which clears it): no orphan outlives a job.
    _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(70)
    try:
        level["caps"] = drop_capabilities()
    except OSError:
        pass
    try:
        if "landlock" not in disabled:
            # Writable: the job's tmpfs only; without one, nothing at all.
            level["landlock"] = apply_landlock(ro_paths, [mount_point] if level["namespaces"] else [],
                                               5 if "landlock-scope" in disabled else None)
    except OSError as exc:
        level["landlock_error"] = str(exc)
    try:
        if "seccomp" not in disabled:
            seccomp.apply()
            level["seccomp"] = True
    except OSError as exc:
        level["seccomp_error"] = str(exc)
    level["summary"] = level_name(level)
    return level
