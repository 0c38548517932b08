"""Dry runs: the kernel forks, the child runs the target cell on its copy of the session under
`isolation.confine`, and reports through a pipe what happened. The parent never waits: a thread
collects the report, kills the child at the budget, reaps it, and sends the reply on the comm.

The request, reply and reason codes are stated in docs/summary-schema.md (`dry_run`); the safety
argument is in docs/dry-run.md.
"""

import json
import os
import platform
import signal
import sys
import threading
import time

DEFAULT_BUDGET_MS = 3000
MAX_BUDGET_MS = 60_000
DEFAULT_MEMORY_MB = 2048
FRAMES_KEPT = 5
MESSAGE_CHARS = 300
MEMORY_POLL_S = 0.05
# Exceptions the isolation itself may cause (a denied write, a socket that is now /dev/null, a
# closed connection): reported as unknown, never as a crash.
_ISOLATION_ERRNOS = {1, 9, 12, 13, 30, 38, 88}  # EPERM EBADF ENOMEM EACCES EROFS ENOSYS ENOTSOCK
_ISOLATION_WORDS = ("permission denied", "not permitted", "read-only file system")
_CLIENT_LIBRARIES = (
    "sqlalchemy",
    "psycopg",
    "psycopg2",
    "pymysql",
    "MySQLdb",
    "pymongo",
    "redis",
    "requests",
    "urllib3",
    "httpx",
    "aiohttp",
    "http",
    "urllib",
    "grpc",
    "botocore",
    "boto3",
    "google",
    "azure",
    "socket",
    "ssl",
    "smtplib",
    "ftplib",
    "sqlite3",
    "duckdb",
    "zmq",
    "paramiko",
)
# GPU runtimes cannot be used from a forked child once the parent opened their devices.
_GPU_DEVICES = ("/dev/nvidia", "/dev/kfd", "/dev/dri/renderD", "/dev/accel")

# Audit events with an effect outside the process: event -> effect code (docs/summary-schema.md).
_EFFECTS = {
    "os.remove": "remove-file",
    "os.rmdir": "remove-directory",
    "shutil.rmtree": "remove-directory",
    "os.rename": "rename-file",
    "shutil.move": "rename-file",
    "os.mkdir": "make-directory",
    "tempfile.mkdtemp": "make-directory",
    "tempfile.mkstemp": "write-file",
    "shutil.copyfile": "write-file",
    "shutil.copytree": "write-file",
    "shutil.make_archive": "write-file",
    "shutil.unpack_archive": "write-file",
    "os.truncate": "change-file",
    "os.chmod": "change-file",
    "os.chown": "change-file",
    "os.chflags": "change-file",
    "os.utime": "change-file",
    "os.link": "change-file",
    "os.symlink": "change-file",
    "os.setxattr": "change-file",
    "os.removexattr": "change-file",
    "shutil.copymode": "change-file",
    "shutil.copystat": "change-file",
    "shutil.chown": "change-file",
    "socket.__new__": "network",
    "socket.bind": "network",
    "socket.connect": "network",
    "socket.sendto": "network",
    "socket.sendmsg": "network",
    "socket.getaddrinfo": "network",
    "socket.gethostbyname": "network",
    "socket.gethostbyaddr": "network",
    "socket.getnameinfo": "network",
    "urllib.Request": "network",
    "http.client.connect": "network",
    "ftplib.connect": "network",
    "smtplib.connect": "network",
    "poplib.connect": "network",
    "imaplib.open": "network",
    "nntplib.connect": "network",
    "telnetlib.Telnet.open": "network",
    "webbrowser.open": "network",
    "subprocess.Popen": "subprocess",
    "os.system": "subprocess",
    "os.exec": "subprocess",
    "os.posix_spawn": "subprocess",
    "os.spawn": "subprocess",
    "os.fork": "subprocess",
    "os.forkpty": "subprocess",
    "os.startfile": "subprocess",
    "pty.spawn": "subprocess",
    "os.kill": "signal",
    "os.killpg": "signal",
    "ctypes.dlopen": "native-library",
    "sqlite3.enable_load_extension": "native-library",
    "syslog.openlog": "system-log",
    "syslog.syslog": "system-log",
}
_SIGNAL_LAYERS = {signal.SIGSYS: "seccomp", signal.SIGXFSZ: "file-size-limit"}


class DryRun:
    """One dry run in flight: its child, its pipe, and how it ended."""

    def __init__(self, request_id, pid, read_fd, budget_s, memory_bytes, started):
        self.request_id, self.pid, self.read_fd = request_id, pid, read_fd
        self.budget_s, self.memory_bytes, self.started = budget_s, memory_bytes, started
        self.cancelled = threading.Event()

    def collect(self) -> dict:
        """Waits for the child's report (budget, memory and cancel enforced); the child is reaped."""
        deadline = self.started + self.budget_s
        chunks, killed = [], None
        while killed is None:
            remaining = deadline - time.monotonic()
            if self.cancelled.is_set():
                killed = {"code": "cancelled"}
            elif remaining <= 0:
                killed = {"code": "budget", "budget_ms": round(self.budget_s * 1000)}
            elif _private_bytes(self.pid) > self.memory_bytes:
                killed = {"code": "memory_cap", "memory_mb": self.memory_bytes >> 20}
            elif _readable(self.read_fd, min(remaining, MEMORY_POLL_S)):
                chunk = os.read(self.read_fd, 1 << 16)
                if not chunk:
                    break
                chunks.append(chunk)
        os.close(self.read_fd)
        if killed is not None:
            os.kill(self.pid, signal.SIGKILL)
        status = _reap(self.pid, deadline)
        elapsed_ms = round((time.monotonic() - self.started) * 1000, 1)
        if killed is not None:
            return {"outcome": "unknown", "reason": killed, "elapsed_ms": elapsed_ms}
        report = _parse(b"".join(chunks), status)
        report["elapsed_ms"] = elapsed_ms
        return report


def _readable(fd: int, timeout: float) -> bool:
    import select  # loaded by every kernel already (ipykernel, zmq)

    return bool(select.select([fd], [], [], timeout)[0])


def _private_bytes(pid: int) -> int:
    """Memory only the child holds: its own allocations and the kernel pages it copied on write."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            return sum(
                int(line.split()[1]) * 1024
                for line in rollup
                if line.startswith(("Private_Clean:", "Private_Dirty:", "Swap:"))
            )
    except OSError:  # no /proc (macOS) or already gone: the address-space cap still holds
        return 0


def _reap(pid: int, deadline: float):
    """The child's wait status; it is killed if it outlives its report past the budget."""
    while True:
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:  # reaped by someone else
            return None
        if done:
            return status
        if time.monotonic() >= deadline:
            os.kill(pid, signal.SIGKILL)
            return os.waitpid(pid, 0)[1]
        time.sleep(0.005)


def _parse(data: bytes, status) -> dict:
    if data:
        try:
            return json.loads(data)
        except ValueError:
            return {"outcome": "unknown", "reason": {"code": "bad_report"}}
    if status is not None and os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        if number in _SIGNAL_LAYERS:
            return {
                "outcome": "unknown",
                "reason": {
                    "code": "outside_effect",
                    "layer": _SIGNAL_LAYERS[number],
                    "effect": "system-call" if number == signal.SIGSYS else "write-file",
                    "line": None,
                },
            }
        return {
            "outcome": "unknown",
            "reason": {"code": "child_died", "signal": signal.Signals(number).name},
        }
    code = os.WEXITSTATUS(status) if status is not None else None
    return {"outcome": "unknown", "reason": {"code": "no_report", "exit_code": code}}


class DryRunner:
    """The agent's dry runs: at most one at a time, cancellable by its request id."""

    def __init__(self, agent):
        self.agent = agent
        self.running = None

    def start(self, request: dict, respond) -> None:
        """Validates the request here; forks on the kernel's main thread (a comm served on a
        subshell thread hands the fork to the main thread's event loop)."""
        code = request["code"]  # checked by the protocol
        budget_s = min(float(request.get("budget_ms") or DEFAULT_BUDGET_MS), MAX_BUDGET_MS) / 1000
        memory_bytes = int(request.get("memory_mb") or DEFAULT_MEMORY_MB) << 20
        if not hasattr(os, "fork"):
            respond(
                {"outcome": "unknown", "reason": {"code": "no_fork", "platform": platform.system()}}
            )
            return

        def fork_and_collect():
            try:
                self._fork(request.get("id"), code, budget_s, memory_bytes, respond)
            except Exception as exc:  # the reply must come whatever happened
                respond({"outcome": "unknown", "reason": _failure(exc)})

        if threading.current_thread() is threading.main_thread():
            fork_and_collect()
            return
        loop = self.agent.main_loop
        if loop is None or loop.is_closed():
            respond({"outcome": "unknown", "reason": {"code": "not_main_thread"}})
            return
        loop.call_soon_threadsafe(fork_and_collect)

    def _fork(self, run_id, code: str, budget_s: float, memory_bytes: int, respond) -> None:
        refusal = self._refusal()
        if refusal is not None:
            respond({"outcome": "unknown", "reason": refusal})
            return
        read_fd, write_fd = os.pipe()
        started = time.monotonic()
        pid = os.fork()
        if pid == 0:  # the child never returns from here
            os.close(read_fd)
            _child(self.agent.ipython, code, write_fd, memory_bytes, started)
        os.close(write_fd)
        run = DryRun(run_id, pid, read_fd, budget_s, memory_bytes, started)
        self.running = run

        def collect_and_reply():
            try:
                result = run.collect()
            except Exception as exc:  # the reply must come whatever happened
                result = {"outcome": "unknown", "reason": _failure(exc)}
            self.running = None  # before replying: the next request may follow at once
            respond(result)

        threading.Thread(target=collect_and_reply, name="cellguard-dry-run", daemon=True).start()

    def cancel(self, run_id) -> bool:
        run = self.running
        if run is None or run.request_id != run_id:
            return False
        run.cancelled.set()
        return True

    def _refusal(self):
        if self.running is not None:
            return {"code": "busy", "running": self.running.request_id}
        gpu = gpu_runtime()
        if gpu is not None:
            return {"code": "gpu", "runtime": gpu}
        return None


def gpu_runtime():
    """What GPU runtime the kernel initialised (nothing is imported to ask), or None."""
    torch = sys.modules.get("torch")
    if torch is not None:
        try:
            if torch.cuda.is_initialized():
                return "torch.cuda"
        except Exception:  # an unusual build of torch: the device check below still applies
            pass
    try:
        descriptors = os.listdir("/proc/self/fd")
    except OSError:
        return None
    for name in descriptors:
        try:
            target = os.readlink(f"/proc/self/fd/{name}")
        except OSError:
            continue
        if target.startswith(_GPU_DEVICES):
            return target
    return None


# The child ----------------------------------------------------------------------------------------


def _child(ipython, code: str, write_fd: int, memory_bytes: int, forked: float) -> None:
    """Runs in the forked child: confine, run the cell, report, and leave with os._exit."""
    try:
        import gc

        gc.freeze()  # the collector leaves the kernel's objects (and their pages) alone
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # an interrupt of the kernel ends the child
        from .isolation import confine

        _silence(ipython)
        layers = confine(write_fd, memory_bytes)
        report = _run(ipython, code, write_fd, forked)
        report["isolation"] = layers
    except BaseException as exc:  # whatever happens, the child reports and exits
        report = {"outcome": "unknown", "reason": _failure(exc)}
    try:
        _send(write_fd, report)
    finally:
        os._exit(0)


def _failure(exc: BaseException) -> dict:
    """A failure of the dry run's own machinery (not of the cell)."""
    return {
        "code": "dry_run_failed",
        "name": type(exc).__name__,
        "message": str(exc)[:MESSAGE_CHARS],
    }


def _send(fd: int, report: dict) -> None:
    data = json.dumps(report, default=str).encode()
    while data:
        data = data[os.write(fd, data) :]


def _silence(ipython) -> None:
    """Nothing the cell prints, displays or plots reaches the notebook (the copy's objects only)."""
    import io

    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        if stream is not None and type(stream).__module__.startswith("ipykernel"):
            stream.write = len  # OutStream hands text to the IOPub thread, absent in the child
            stream.flush = lambda: None
    sys.stdout, sys.stderr = io.StringIO(), io.StringIO()
    sys.stdin = io.StringIO()
    kernel = getattr(ipython, "kernel", None)
    if kernel is not None:
        kernel.session.send = lambda *args, **kwargs: None  # every message to the front end
    ipython.display_pub.publish = lambda *args, **kwargs: None
    # Formatting a traceback (IPython reads and highlights the source of every frame) can take
    # seconds; the report reads the traceback itself.
    ipython.showtraceback = ipython.showsyntaxerror = lambda *args, **kwargs: None
    sys.dont_write_bytecode = True  # an import would write __pycache__: an outside effect
    os.environ["MPLBACKEND"] = "Agg"
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is not None:
        pyplot.switch_backend("Agg")


def _run(ipython, code: str, write_fd: int, forked: float) -> dict:
    """Runs the cell as IPython does (input transformations, magics), silently: no history."""
    transformed = ipython.transform_cell(code)
    if ipython.should_run_async(code, transformed_cell=transformed, preprocessing_exc_tuple=None):
        return {"outcome": "unknown", "reason": {"code": "async_cell"}}
    namespace = ipython.user_global_ns  # the cell's top-level frames run with these globals
    sys.addaudithook(_audit_hook(namespace, write_fd))
    started = time.monotonic()
    result = ipython.run_cell(code, store_history=False, silent=True)
    elapsed_ms = round((time.monotonic() - started) * 1000, 1)
    error = result.error_before_exec or result.error_in_exec
    report = _crash(error, namespace) if error is not None else {"outcome": "completed"}
    report["run_ms"] = elapsed_ms
    report["setup_ms"] = round((started - forked) * 1000, 1)  # fork and isolation
    return report


def _audit_hook(namespace: dict, write_fd: int):
    """Stops the child at the first event with an outside effect, reporting it with its line."""
    stopping = []

    def hook(event, args):
        effect = _EFFECTS.get(event)
        if effect is None and event == "open":
            effect = _open_effect(args)
        elif effect is None and event == "sqlite3.connect" and args and args[0] != ":memory:":
            effect = "database"
        if effect is None or stopping:
            return
        stopping.append(event)
        target = args[0] if args and isinstance(args[0], (str, bytes, int)) else None
        reason = {
            "code": "outside_effect",
            "layer": "audit-hook",
            "event": event,
            "effect": effect,
            "target": None if target is None else str(target)[:200],
            "line": _cell_line(sys._getframe(1), namespace),
        }
        _send(write_fd, {"outcome": "unknown", "reason": reason})
        os._exit(0)

    return hook


def _open_effect(args):
    _, mode, flags = (*args, None, None, None)[:3]
    if isinstance(mode, str):
        writes = any(letter in mode for letter in "wax+")
    else:
        writes = bool(
            (flags or 0) & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND)
        )
    return "write-file" if writes else None


def _cell_line(frame, namespace: dict):
    """The 1-based line of the cell's top-level statement running: in this frame's stack, or for a
    thread the cell started, in the main thread's."""
    for innermost in (frame, sys._current_frames().get(threading.main_thread().ident)):
        current = innermost
        while current is not None:
            if current.f_code.co_name == "<module>" and current.f_globals is namespace:
                return current.f_lineno
            current = current.f_back
    return None


def _crash(error: BaseException, namespace: dict) -> dict:
    name, message = type(error).__name__, _message(error)
    frames, line = [], None
    tb = error.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_name == "<module>" and tb.tb_frame.f_globals is namespace:
            line = tb.tb_lineno
        frames.append({"file": code.co_filename, "line": tb.tb_lineno, "function": code.co_name})
        tb = tb.tb_next
    if isinstance(error, SyntaxError) and line is None:
        line = error.lineno
    details = {"name": name, "message": message, "line": line, "frames": frames[-FRAMES_KEPT:]}
    if isinstance(error, (KeyboardInterrupt, SystemExit)):
        return {"outcome": "unknown", "reason": {"code": "exit", **details}}
    if isinstance(error, MemoryError):  # the cap, not the kernel, may be what ran out
        return {"outcome": "unknown", "reason": {"code": "memory_cap", **details}}
    if _caused_by_isolation(error):
        return {"outcome": "unknown", "reason": {"code": "isolation_suspect", **details}}
    return {"outcome": "crash", "exception": details}


def _message(error: BaseException) -> str:
    try:
        text = str(error)
    except Exception:  # a user exception whose __str__ fails
        text = ""
    return text[:MESSAGE_CHARS]


def _caused_by_isolation(error: BaseException) -> bool:
    """Whether the isolation may be why the cell failed: then the failure says nothing certain."""
    seen = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        if isinstance(error, OSError) and (error.errno in _ISOLATION_ERRNOS or error.errno is None):
            return True
        module = type(error).__module__.split(".")[0]
        if module in _CLIENT_LIBRARIES or isinstance(error, ConnectionError):
            return True
        if any(word in _message(error).lower() for word in _ISOLATION_WORDS):
            return True
        error = error.__cause__ or error.__context__
    return False
