"""The seccomp filter of a sandboxed child: no network, exec, new processes, IPC or tracing."""

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
    """BPF: deny network, exec, new processes, IPC, tracing, namespaces and signals to others."""
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
