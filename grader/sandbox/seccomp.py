"""The seccomp filter of a sandboxed child: no network, exec, new processes, IPC or tracing,
no signal to anyone else (kill and friends, and the file-owner route of fcntl and ioctl), no
call that names another process by pid (prlimit64, setpriority, sched_*, ioprio_*...), and no
memory outside the job's limits (memfd_create, memfd_secret, F_SETPIPE_SZ)."""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import struct

PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
AUDIT_ARCH_X86_64 = 0xC000003E
RET_ALLOW = 0x7FFF0000
RET_KILL_PROCESS = 0x80000000

_libc = ctypes.CDLL(None, use_errno=True)


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
    "fsopen": 430, "fsmount": 432, "move_mount": 429, "open_tree": 428,
    # SysV and POSIX IPC: not path-based (Landlock cannot see them) and they outlive the job,
    # so one job could leave answers or pinned memory for the next.
    "shmget": 29, "shmat": 30, "shmctl": 31, "shmdt": 67, "semget": 64, "semop": 65,
    "semctl": 66, "semtimedop": 220, "msgget": 68, "msgsnd": 69, "msgrcv": 70, "msgctl": 71,
    "mq_open": 240, "mq_unlink": 241, "mq_timedsend": 242, "mq_timedreceive": 243,
    "mq_notify": 244, "mq_getsetattr": 245,
}
X86_64 = {"clone": 56, "clone3": 435, "kill": 62, "tkill": 200, "tgkill": 234,
          "rt_sigqueueinfo": 129, "rt_tgsigqueueinfo": 297, "fcntl": 72, "ioctl": 16}
# Calls that name another process by pid and act on it without a signal (red team,
# 2026-12-03, R1/R2): prlimit64(pid, RLIMIT_CPU, 1 s) on the app makes the kernel SIGKILL it
# (same uid on a Space); setpriority/sched_*/ioprio_* renice or pin another learner's job;
# their get-halves read another job's state (a channel between jobs). Allowed only for the
# child itself: pid 0 or its own pid. (name: (number, argument holding the pid, the value the
# argument before it must have, or None))
PID_TARGETED = {
    "prlimit64": (302, 0, None), "sched_setaffinity": (203, 0, None),
    "sched_getaffinity": (204, 0, None), "sched_setparam": (142, 0, None),
    "sched_getparam": (143, 0, None), "sched_setscheduler": (144, 0, None),
    "sched_getscheduler": (145, 0, None), "sched_rr_get_interval": (148, 0, None),
    "sched_setattr": (314, 0, None), "sched_getattr": (315, 0, None),
    "migrate_pages": (256, 0, None), "move_pages": (279, 0, None),
    "get_robust_list": (274, 0, None),
    "setpriority": (141, 1, 0), "getpriority": (140, 1, 0),  # which = PRIO_PROCESS only
    "ioprio_set": (251, 1, 1), "ioprio_get": (252, 1, 1),  # which = IOPRIO_WHO_PROCESS only
}
# Never needed, and each reaches another process: kcmp compares two processes' resources,
# process_madvise / process_mrelease act on another process's memory through a pidfd.
X86_64_DENY.update({"kcmp": 312, "process_madvise": 440, "process_mrelease": 448})
# Memory that RLIMIT_AS does not count (red team, issue 29 item 10): a memfd's pages belong to
# the file, not to the address space, so posix_fallocate on 60 memfds (each under RLIMIT_FSIZE)
# held 885 MiB of host shared memory per job after a 1 GiB bytearray was refused, and
# mmap/munmap in turns fills one without write(). memfd_secret's pages likewise. Learner code
# never needs either; Python raises PermissionError. POSIX shm and /dev/shm files are refused
# by Landlock, SysV shm above, and the job's one writable place is a size-capped tmpfs.
X86_64_DENY.update({"memfd_create": 319, "memfd_secret": 447})
CLONE_THREAD = 0x00010000
# Signals without kill (issue 19, F3): a file's owner gets SIGIO, or the signal F_SETSIG
# names (SIGKILL too), whenever the file becomes ready with O_ASYNC set. Owner = -pgid makes
# the kernel signal a whole process group. Landlock scopes this only from ABI 6 (kernel
# 6.12), so the filter refuses every way to set an owner, a signal, or O_ASYNC.
F_SETFL, F_SETOWN, F_SETSIG, F_SETOWN_EX = 4, 8, 10, 15
O_ASYNC = 0o20000
FCNTL_DENY = {"F_SETOWN": F_SETOWN, "F_SETSIG": F_SETSIG, "F_SETOWN_EX": F_SETOWN_EX}
# Not a signal route but memory outside the limit: F_SETPIPE_SZ grows a pipe's kernel buffer to
# 1 MiB (pipe-max-size), so the job's 64 descriptors held ~28 MiB of unswappable kernel memory
# beyond RLIMIT_AS; at the default 64 KiB they hold ~2 MiB.
F_SETPIPE_SZ = 1031
FCNTL_DENY["F_SETPIPE_SZ"] = F_SETPIPE_SZ
IOCTL_DENY = {"FIOSETOWN": 0x8901, "SIOCSPGRP": 0x8902, "FIOASYNC": 0x5452,
              "TIOCSPGRP": 0x5410, "TIOCSIG": 0x40045436}


def _ins(code: int, jt: int, jf: int, k: int) -> bytes:
    return struct.pack("<HBBI", code, jt, jf, k & 0xFFFFFFFF)


LD_NR = _ins(0x20, 0, 0, 0)
LD_ARCH = _ins(0x20, 0, 0, 4)
LD_ARG0 = _ins(0x20, 0, 0, 16)
LD_ARG1 = _ins(0x20, 0, 0, 24)  # low 32 bits (x86_64 is little-endian): fcntl's and ioctl's cmd
LD_ARG2 = _ins(0x20, 0, 0, 32)
LD_ARGS = (LD_ARG0, LD_ARG1, LD_ARG2)


def _jeq(k: int, jt: int, jf: int) -> bytes:
    return _ins(0x15, jt, jf, k)


def _ret(k: int) -> bytes:
    return _ins(0x06, 0, 0, k)


def _jset(k: int, jt: int, jf: int) -> bytes:
    return _ins(0x45, jt, jf, k)


def _no_signal_direction(deny: int) -> list[bytes]:
    """fcntl: refuse FCNTL_DENY (F_SETOWN, F_SETSIG, F_SETOWN_EX, F_SETPIPE_SZ) and F_SETFL
    with O_ASYNC (F_SETFL without it, as os.set_blocking does, is allowed). ioctl: refuse
    IOCTL_DENY. Expects the syscall number in the accumulator; every path through it returns."""
    cmds = list(FCNTL_DENY.values())
    n = len(cmds)
    fcntl = [LD_ARG1] + [_jeq(c, n - i + 2, 0) for i, c in enumerate(cmds)]  # -> deny
    fcntl += [_jeq(F_SETFL, 0, 3), LD_ARG2, _jset(O_ASYNC, 0, 1), _ret(deny), _ret(RET_ALLOW)]
    codes = list(IOCTL_DENY.values())
    m = len(codes)
    ioctl = [LD_ARG1] + [_jeq(c, m - i, 0) for i, c in enumerate(codes)]  # -> deny
    ioctl += [_ret(RET_ALLOW), _ret(deny)]
    return ([_jeq(X86_64["fcntl"], 0, len(fcntl))] + fcntl
            + [_jeq(X86_64["ioctl"], 0, len(ioctl))] + ioctl)


def _own_process_only(nr: int, arg: int, before: int | None, allowed: list[int], deny: int) -> list[bytes]:
    """Syscall ``nr`` allowed only when argument ``arg`` is one of ``allowed`` (and, if
    ``before`` is given, argument ``arg - 1`` equals it); ends by reloading the number."""
    n = len(allowed)
    body = []
    if before is not None:
        body += [LD_ARGS[arg - 1], _jeq(before, 0, n + 1)]  # another kind of target -> deny
    body += [LD_ARGS[arg]] + [_jeq(v, n - i, 0) for i, v in enumerate(allowed)]
    body += [_ret(deny), _ret(RET_ALLOW)]
    return [_jeq(nr, 0, len(body))] + body + [LD_NR]


def available() -> bool:
    """Whether this kernel and machine can take our filter (x86_64 with seccomp filters)."""
    if platform.machine() != "x86_64":
        return False
    try:
        with open("/proc/self/status") as f:
            return any(line.startswith("Seccomp:") for line in f)
    except OSError:
        return False


def program(pid: int) -> bytes:
    """BPF: deny network, exec, new processes, IPC, tracing, namespaces and signals to others
    (issue 19, property 3: no signal or process-group reach leaves the sandbox, on any kernel)."""
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
    for nr, arg, before in PID_TARGETED.values():
        prog += _own_process_only(nr, arg, before, [pid, 0], eperm)
    prog += _no_signal_direction(eperm)
    prog.append(_ret(RET_ALLOW))
    return b"".join(prog)


def apply() -> None:
    """Install the filter for this process and its threads."""
    if platform.machine() != "x86_64":
        raise OSError(errno.ENOSYS, f"no seccomp table for {platform.machine()}")
    code = program(os.getpid())
    buf = ctypes.create_string_buffer(code, len(code))

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    prog = SockFprog(len(code) // 8, ctypes.cast(buf, ctypes.c_void_p))
    prctl = _libc.prctl
    prctl.argtypes = None
    if prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"prctl(NO_NEW_PRIVS): {os.strerror(err)}")
    if prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"prctl(SECCOMP): {os.strerror(err)}")
