"""Confinement of a dry run's forked child: everything here runs in the child only, never in the
kernel. Each layer is applied where the operating system offers it; `confine` reports which were.

- descriptors: every inherited descriptor except the result pipe becomes /dev/null, so the kernel's
  ZMQ sockets, a file the user opened in an earlier cell and the terminal are never written;
- shared memory: writable shared mappings (np.memmap 'r+', multiprocessing shared memory) are
  replaced by private copies, so writes through them stay in the child;
- resources: an address-space cap, no file growth (RLIMIT_FSIZE 0), no core dumps, nice 10;
- Landlock (Linux >= 5.13): no filesystem writes anywhere; TCP bind/connect (ABI >= 4); signals and
  abstract unix sockets outside the child (ABI >= 6);
- seccomp (Linux x86-64): the child is killed (SIGSYS) at the first system call with an effect
  outside itself: sockets, processes, signals to others, opening files for writing, removing,
  renaming, linking and changing files, SysV IPC, mounts, and other privileged calls.
"""

import ctypes
import errno
import os
import platform
import resource
import signal
import struct

NICE = 10

_PR_SET_PDEATHSIG = 1
_PR_SET_NO_NEW_PRIVS = 38
_PR_SET_SECCOMP = 22
_SECCOMP_MODE_FILTER = 2

_LANDLOCK_CREATE_RULESET, _LANDLOCK_RESTRICT_SELF = 444, 446  # the same number on every arch
_LANDLOCK_CREATE_RULESET_VERSION = 1
# Every filesystem right that changes something (abi: bit): WRITE_FILE, REMOVE_DIR, REMOVE_FILE,
# MAKE_CHAR, MAKE_DIR, MAKE_REG, MAKE_SOCK, MAKE_FIFO, MAKE_BLOCK, MAKE_SYM, REFER (2),
# TRUNCATE (3), IOCTL_DEV (5). Reads and execution stay unhandled, hence allowed.
_LANDLOCK_FS_WRITE = {1: 0b1_1111_1111_0010, 2: 1 << 13, 3: 1 << 14, 5: 1 << 15}
_LANDLOCK_NET_TCP = 0b11  # BIND_TCP | CONNECT_TCP (ABI 4)
_LANDLOCK_SCOPES = 0b11  # ABSTRACT_UNIX_SOCKET | SIGNAL (ABI 6)


def _libc():
    return ctypes.CDLL(None, use_errno=True)


def keep_only(fd: int) -> None:
    """Make every descriptor but `fd` a /dev/null: nothing inherited can be written any more."""
    null = os.open(os.devnull, os.O_RDWR)
    for name in os.listdir("/proc/self/fd" if os.path.isdir("/proc/self/fd") else "/dev/fd"):
        number = int(name)
        if number not in (fd, null):  # the listing's own descriptor, closed by now, is reused
            os.dup2(null, number, inheritable=False)


def privatize_shared_mappings(libc) -> int:
    """Swap every writable shared mapping for a private copy at the same address; returns bytes."""
    if not os.path.exists("/proc/self/maps"):
        return 0
    with open("/proc/self/maps") as maps:
        shared = []
        for line in maps:
            fields = line.split()
            if fields[1][1] == "w" and fields[1][3] == "s":
                start, end = (int(part, 16) for part in fields[0].split("-"))
                shared.append((start, end - start))
    mmap, mremap = libc.mmap, libc.mremap
    mmap.restype = mremap.restype = ctypes.c_void_p
    mmap.argtypes = [
        ctypes.c_void_p,
        ctypes.c_size_t,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_long,
    ]
    mremap.argtypes = [
        ctypes.c_void_p,
        ctypes.c_size_t,
        ctypes.c_size_t,
        ctypes.c_int,
        ctypes.c_void_p,
    ]
    prot_rw, private_anonymous = 0x1 | 0x2, 0x02 | 0x20
    mremap_maymove_fixed = 0x1 | 0x2
    for start, size in shared:
        copy = mmap(None, size, prot_rw, private_anonymous, -1, 0)
        if copy in (None, ctypes.c_void_p(-1).value):
            raise OSError(ctypes.get_errno(), "mmap for a private copy failed")
        ctypes.memmove(copy, start, size)
        if mremap(copy, size, size, mremap_maymove_fixed, start) != start:
            raise OSError(ctypes.get_errno(), "mremap of a private copy failed")
    return sum(size for _, size in shared)


def limit_resources(extra_memory_bytes: int) -> None:
    """Cap the address space at its size now plus the allowance; no file growth, no core file."""
    with open("/proc/self/status") as status:
        size_kb = next(int(line.split()[1]) for line in status if line.startswith("VmSize:"))
    cap = size_kb * 1024 + extra_memory_bytes
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)  # a write past the limit kills: it is reported
    os.nice(NICE)


def landlock_abi(libc) -> int:
    syscall = libc.syscall
    syscall.restype = ctypes.c_long
    abi = syscall(
        ctypes.c_long(_LANDLOCK_CREATE_RULESET),
        None,
        ctypes.c_size_t(0),
        ctypes.c_uint32(_LANDLOCK_CREATE_RULESET_VERSION),
    )
    return max(int(abi), 0)


def apply_landlock(libc, abi: int) -> None:
    """Read-only filesystem, no TCP, signals and abstract sockets scoped to the child."""
    handled_fs = 0
    for since, rights in _LANDLOCK_FS_WRITE.items():
        if abi >= since:
            handled_fs |= rights
    fields = [handled_fs]
    if abi >= 4:
        fields.append(_LANDLOCK_NET_TCP)
    if abi >= 6:
        fields.append(_LANDLOCK_SCOPES)
    packed = struct.pack(f"{len(fields)}Q", *fields)
    attr = ctypes.create_string_buffer(packed, len(packed))
    syscall = libc.syscall
    syscall.restype = ctypes.c_long
    ruleset = syscall(
        ctypes.c_long(_LANDLOCK_CREATE_RULESET),
        attr,
        ctypes.c_size_t(len(packed)),
        ctypes.c_uint32(0),
    )
    if ruleset < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset failed")
    try:
        if (
            syscall(
                ctypes.c_long(_LANDLOCK_RESTRICT_SELF), ctypes.c_int(ruleset), ctypes.c_uint32(0)
            )
            < 0
        ):
            raise OSError(ctypes.get_errno(), "landlock_restrict_self failed")
    finally:
        os.close(ruleset)


# seccomp on x86-64 ------------------------------------------------------------------------------
_AUDIT_ARCH_X86_64 = 0xC000003E
_RET_KILL_PROCESS = 0x80000000
_RET_ALLOW = 0x7FFF0000
_RET_ENOSYS = 0x00050000 | errno.ENOSYS
_X32_BIT = 0x40000000
_FIRST_UNKNOWN_SYSCALL = 463  # newer calls answer ENOSYS (libraries fall back)
_CLONE_THREAD = 0x10000
_OPEN_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND

# x86-64 system call numbers (arch/x86/entry/syscalls/syscall_64.tbl) of the calls filtered.
_X86_64 = {
    "shmget": 29, "shmat": 30, "shmctl": 31, "socket": 41, "connect": 42, "accept": 43,
    "sendto": 44, "sendmsg": 46, "bind": 49, "listen": 50, "clone": 56, "fork": 57, "vfork": 58,
    "execve": 59, "kill": 62, "semget": 64, "semop": 65, "semctl": 66, "msgget": 68, "msgsnd": 69,
    "msgrcv": 70, "msgctl": 71, "truncate": 76, "rename": 82, "mkdir": 83, "rmdir": 84,
    "creat": 85, "link": 86, "unlink": 87, "symlink": 88, "chmod": 90, "fchmod": 91, "chown": 92,
    "fchown": 93, "lchown": 94, "ptrace": 101, "rt_sigqueueinfo": 129, "utime": 132, "mknod": 133,
    "setpriority": 141, "sched_setscheduler": 144, "pivot_root": 155, "adjtimex": 159,
    "setrlimit": 160, "chroot": 161, "acct": 163, "settimeofday": 164, "mount": 165,
    "umount2": 166, "swapon": 167, "swapoff": 168, "reboot": 169, "sethostname": 170,
    "setdomainname": 171, "iopl": 172, "ioperm": 173, "init_module": 175, "delete_module": 176,
    "quotactl": 179, "setxattr": 188, "lsetxattr": 189, "fsetxattr": 190, "removexattr": 197,
    "lremovexattr": 198, "fremovexattr": 199, "tkill": 200, "semtimedop": 220,
    "clock_settime": 227, "tgkill": 234, "utimes": 235, "mq_open": 240, "mq_unlink": 241,
    "mq_timedsend": 242, "kexec_load": 246, "add_key": 248, "request_key": 249, "keyctl": 250,
    "open": 2, "openat": 257, "mkdirat": 258, "mknodat": 259, "fchownat": 260, "futimesat": 261,
    "unlinkat": 263, "renameat": 264, "linkat": 265, "symlinkat": 266, "fchmodat": 268,
    "unshare": 272, "utimensat": 280, "accept4": 288, "rt_tgsigqueueinfo": 297,
    "perf_event_open": 298, "fanotify_init": 300, "prlimit64": 302, "name_to_handle_at": 303,
    "open_by_handle_at": 304, "clock_adjtime": 305, "sendmmsg": 307, "setns": 308,
    "process_vm_readv": 310, "process_vm_writev": 311, "finit_module": 313, "renameat2": 316,
    "kexec_file_load": 320, "bpf": 321, "execveat": 322, "userfaultfd": 323,
    "pidfd_send_signal": 424, "io_uring_setup": 425, "io_uring_enter": 426,
    "io_uring_register": 427, "open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431,
    "fsmount": 432, "fspick": 433, "clone3": 435, "openat2": 437, "pidfd_getfd": 438,
    "mount_setattr": 442, "fchmodat2": 452,
}  # fmt: skip
# Killed outright: sockets, processes, signals to others' threads, changing files, SysV and POSIX
# IPC, and system administration (mounts, clocks, modules, keys, namespaces, priorities, limits).
_KILLED = """
    socket connect accept accept4 sendto sendmsg sendmmsg bind listen
    fork vfork execve execveat ptrace process_vm_readv process_vm_writev pidfd_send_signal
    pidfd_getfd tkill
    rename renameat renameat2 mkdir mkdirat rmdir creat link linkat unlink unlinkat symlink
    symlinkat chmod fchmod fchmodat fchmodat2 chown fchown lchown fchownat truncate mknod mknodat
    utime utimes futimesat utimensat setxattr lsetxattr fsetxattr removexattr lremovexattr
    fremovexattr name_to_handle_at open_by_handle_at
    shmget shmat shmctl semget semop semctl semtimedop msgget msgsnd msgrcv msgctl mq_open
    mq_unlink mq_timedsend
    pivot_root adjtimex chroot acct settimeofday mount umount2 swapon swapoff reboot sethostname
    setdomainname iopl ioperm init_module delete_module finit_module quotactl clock_settime
    clock_adjtime kexec_load kexec_file_load add_key request_key keyctl unshare setns
    perf_event_open fanotify_init bpf userfaultfd setpriority sched_setscheduler setrlimit
    open_tree move_mount fsopen fsconfig fsmount fspick mount_setattr
""".split()
# Answered ENOSYS: clone3 (glibc falls back to clone, filtered below), openat2, io_uring.
_ENOSYS = "clone3 openat2 io_uring_setup io_uring_enter io_uring_register".split()

_LD_W_ABS, _JEQ, _JGE, _JSET, _RET = 0x20, 0x15, 0x35, 0x45, 0x06


def _arg_low(index: int) -> int:
    return 16 + 8 * index  # seccomp_data.args[index], low 32 bits (little endian)


def seccomp_program(own_pid: int) -> list:
    """The BPF filter as (code, jt, jf, k) tuples; jumps are relative and kept short."""
    program = [
        (_LD_W_ABS, 0, 0, 4),  # arch
        (_JEQ, 1, 0, _AUDIT_ARCH_X86_64),
        (_RET, 0, 0, _RET_KILL_PROCESS),
        (_LD_W_ABS, 0, 0, 0),  # nr
        (_JGE, 0, 1, _X32_BIT),
        (_RET, 0, 0, _RET_KILL_PROCESS),
    ]
    for name in _KILLED:
        program += [(_JEQ, 0, 1, _X86_64[name]), (_RET, 0, 0, _RET_KILL_PROCESS)]
    for name in _ENOSYS:
        program += [(_JEQ, 0, 1, _X86_64[name]), (_RET, 0, 0, _RET_ENOSYS)]
    program += [(_JGE, 0, 1, _FIRST_UNKNOWN_SYSCALL), (_RET, 0, 0, _RET_ENOSYS)]
    # open/openat: killed when the flags ask to write, create, truncate or append.
    for name, flags_arg in (("open", 1), ("openat", 2)):
        program += [
            (_JEQ, 0, 4, _X86_64[name]),
            (_LD_W_ABS, 0, 0, _arg_low(flags_arg)),
            (_JSET, 0, 1, _OPEN_WRITE_FLAGS),
            (_RET, 0, 0, _RET_KILL_PROCESS),
            (_RET, 0, 0, _RET_ALLOW),
        ]
    # clone: threads only (a new process lacks CLONE_THREAD).
    program += [
        (_JEQ, 0, 4, _X86_64["clone"]),
        (_LD_W_ABS, 0, 0, _arg_low(0)),
        (_JSET, 0, 1, _CLONE_THREAD),
        (_RET, 0, 0, _RET_ALLOW),
        (_RET, 0, 0, _RET_KILL_PROCESS),
    ]
    # Signals only to the child itself; prlimit64 only to read limits (no new limit given).
    for name, arg, allowed in (
        ("kill", 0, own_pid),
        ("tgkill", 0, own_pid),
        ("rt_sigqueueinfo", 0, own_pid),
        ("rt_tgsigqueueinfo", 0, own_pid),
        ("prlimit64", 2, 0),
    ):
        program += [
            (_JEQ, 0, 6, _X86_64[name]),
            (_LD_W_ABS, 0, 0, _arg_low(arg)),
            (_JEQ, 0, 3, allowed),
            (_LD_W_ABS, 0, 0, _arg_low(arg) + 4),
            (_JEQ, 0, 1, 0),
            (_RET, 0, 0, _RET_ALLOW),
            (_RET, 0, 0, _RET_KILL_PROCESS),
        ]
    program.append((_RET, 0, 0, _RET_ALLOW))
    return program


def apply_seccomp(libc, own_pid: int) -> None:
    program = seccomp_program(own_pid)
    filters = b"".join(struct.pack("HBBI", *instruction) for instruction in program)
    buffer = ctypes.create_string_buffer(filters)
    fprog = struct.pack("@HP", len(program), ctypes.addressof(buffer))
    fprog_buffer = ctypes.create_string_buffer(fprog)
    if libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, fprog_buffer, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "seccomp filter refused")


def confine(keep_fd: int, extra_memory_bytes: int) -> dict:
    """Apply every layer this system offers; returns `{layer: active}` (Landlock: its ABI, or 0)."""
    libc = _libc()
    linux = platform.system() == "Linux"
    if linux:
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)  # gone with the kernel
    layers = {"shared_memory_bytes": privatize_shared_mappings(libc) if linux else 0}
    keep_only(keep_fd)
    layers["descriptors"] = True
    limit_resources(extra_memory_bytes)
    layers["memory_cap"] = True
    layers["nice"] = NICE
    layers["landlock"] = 0
    layers["seccomp"] = False
    if not linux:
        return layers
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        return layers
    abi = landlock_abi(libc)
    if abi > 0:
        apply_landlock(libc, abi)
        layers["landlock"] = abi
    if platform.machine() in ("x86_64", "AMD64"):
        apply_seccomp(libc, os.getpid())
        layers["seccomp"] = True
    return layers
