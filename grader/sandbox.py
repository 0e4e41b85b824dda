"""Kernel-level confinement applied inside a forked child: rlimits, non-root user, Landlock, seccomp."""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import resource
import struct
import sys

from grader.spec import Limits

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long
_libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]

PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
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


def apply_landlock(read_only: list[str], read_write: list[str]) -> int:
    """Allow reading only ``read_only`` and writing only ``read_write``; returns the ABI used."""
    abi = landlock_abi()
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


# --- seccomp -------------------------------------------------------------------------------
AUDIT_ARCH_X86_64 = 0xC000003E
RET_ALLOW = 0x7FFF0000
RET_KILL_PROCESS = 0x80000000


def _ret_errno(e: int) -> int:
    return 0x00050000 | e


# x86_64 numbers of the calls a learner's code never needs and a hostile one would use.
X86_64_DENY = {
    "socket": 41, "connect": 42, "accept": 43, "bind": 49, "listen": 50, "socketpair": 53,
    "accept4": 288, "ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311,
    "execve": 59, "execveat": 322, "fork": 57, "vfork": 58, "setsid": 112, "setpgid": 109,
    "mount": 165, "umount2": 166, "unshare": 272, "setns": 308, "pivot_root": 155, "chroot": 161,
    "keyctl": 250, "add_key": 248, "request_key": 249, "bpf": 321, "perf_event_open": 298,
    "userfaultfd": 323, "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
    "pidfd_open": 434, "pidfd_getfd": 438, "pidfd_send_signal": 424, "open_by_handle_at": 304,
    "name_to_handle_at": 303, "mknod": 133, "mknodat": 259, "personality": 135,
    "kexec_load": 246, "init_module": 175, "finit_module": 313, "delete_module": 176,
    "reboot": 169, "swapon": 167, "swapoff": 168, "acct": 163, "quotactl": 179,
}
X86_64 = {"clone": 56, "clone3": 435, "kill": 62, "tkill": 200, "tgkill": 234,
          "rt_sigqueueinfo": 129, "rt_tgsigqueueinfo": 297}
CLONE_THREAD = 0x00010000


def _ins(code: int, jt: int, jf: int, k: int) -> bytes:
    return struct.pack("<HBBI", code, jt, jf, k & 0xFFFFFFFF)


LD_NR = _ins(0x20, 0, 0, 0)
LD_ARCH = _ins(0x20, 0, 0, 4)
LD_ARG0 = _ins(0x20, 0, 0, 16)


def _jeq(k: int, jt: int, jf: int) -> bytes:
    return _ins(0x15, jt, jf, k)


def _ret(k: int) -> bytes:
    return _ins(0x06, 0, 0, k)


def seccomp_program(pid: int) -> bytes:
    """BPF: deny network, exec, new processes, tracing, namespaces and signals to other processes."""
    eperm = _ret_errno(errno.EPERM)
    prog = [LD_ARCH, _jeq(AUDIT_ARCH_X86_64, 1, 0), _ret(RET_KILL_PROCESS), LD_NR,
            _ins(0x35, 0, 1, 0x40000000), _ret(eperm)]  # x32 syscalls: refuse
    for nr in X86_64_DENY.values():
        prog += [_jeq(nr, 0, 1), _ret(eperm)]
    prog += [_jeq(X86_64["clone3"], 0, 1), _ret(_ret_errno(errno.ENOSYS))]  # glibc falls back to clone
    # clone: threads only (CLONE_THREAD set); a new process is refused.
    prog += [_jeq(X86_64["clone"], 0, 4), LD_ARG0, _ins(0x45, 0, 1, CLONE_THREAD), _ret(RET_ALLOW),
             _ret(_ret_errno(errno.EAGAIN))]
    own = [pid, 0, (-pid) & 0xFFFFFFFF]
    for name, allowed in (("kill", own), ("tkill", [pid]), ("tgkill", [pid]),
                          ("rt_sigqueueinfo", [pid]), ("rt_tgsigqueueinfo", [pid])):
        n = len(allowed)
        prog += [_jeq(X86_64[name], 0, n + 3), LD_ARG0]
        prog += [_jeq(v, n - i, 0) for i, v in enumerate(allowed)]
        prog += [_ret(eperm), _ret(RET_ALLOW)]
        # Reload the syscall number for the next test (arg0 is in the accumulator now).
        prog += [LD_NR]
    prog.append(_ret(RET_ALLOW))
    return b"".join(prog)


def apply_seccomp() -> None:
    """Install the filter for this process and its threads."""
    if platform.machine() != "x86_64":
        raise OSError(errno.ENOSYS, f"no seccomp table for {platform.machine()}")
    code = seccomp_program(os.getpid())
    n = len(code) // 8
    buf = ctypes.create_string_buffer(code, len(code))

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    prog = SockFprog(n, ctypes.cast(buf, ctypes.c_void_p))
    if _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise _fail("prctl(NO_NEW_PRIVS)")
    _libc.prctl.argtypes = None
    try:
        if _libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
            raise _fail("prctl(SECCOMP)")
    finally:
        _libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong,
                                ctypes.c_ulong]


# --- rlimits and user -----------------------------------------------------------------------
def vm_size_bytes() -> int:
    """This process's virtual size (the base for RLIMIT_AS)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 1 << 30


def apply_rlimits(limits: Limits, as_root: bool) -> None:
    """Address space, CPU seconds, file size, open files, core dumps, and processes."""
    mem = vm_size_bytes() + limits.memory_mib * (1 << 20)
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


# Layers switched off on purpose (``--without`` on the worker): to test the level reporting and
# to mimic hosts that refuse them. Never set in production.
DISABLED: set[str] = set()
LAYERS = ("user", "landlock", "seccomp")


def confine(limits: Limits, workdir: str, protected: list[str], ro_paths: list[str]) -> dict:
    """Apply every layer the host allows, in order; return what was reached."""
    level = {"setsid": False, "rlimits": False, "user": "unchanged", "landlock": 0, "seccomp": False}
    os.setsid()
    level["setsid"] = True
    as_root = os.geteuid() == 0
    apply_rlimits(limits, as_root)
    level["rlimits"] = True
    os.chdir(workdir)
    try:
        if "user" in DISABLED:
            level["user"] = f"uid {os.geteuid()} (switch disabled)"
        else:
            level["user"] = "nobody" if drop_root() else f"uid {os.geteuid()} (not root)"
    except OSError as exc:
        level["user"] = f"uid {os.geteuid()} (drop failed: {exc.strerror})"
    try:
        if "landlock" not in DISABLED:
            level["landlock"] = apply_landlock(ro_paths, [workdir])
    except OSError as exc:
        level["landlock_error"] = str(exc)
    try:
        if "seccomp" not in DISABLED:
            apply_seccomp()
            level["seccomp"] = True
    except OSError as exc:
        level["seccomp_error"] = str(exc)
    return level


def summarize(level: dict) -> str:
    """One word for a level: full, partial, or minimal."""
    user = level.get("user", "")
    non_root = user.startswith("nobody") or (user.startswith("uid") and not user.startswith("uid 0 "))
    if level.get("landlock") and level.get("seccomp") and non_root:
        return "full"
    if level.get("landlock") or level.get("seccomp"):
        return "partial"
    return "minimal"
