"""Dry runs in a real kernel: the torture suite. Every cell here tries to act outside the forked
child; the files, the listener and the parent's namespace must show that nothing escaped."""

import json
import os
import select
import socket
import time
import uuid

import pytest
from conftest import _kernel_env, _start

from cellguard.kernel.bootstrap import bootstrap_source

pytestmark = pytest.mark.timeout(240)

SETUP = r"""
import os, pathlib, shutil, threading, ctypes
import numpy as np, pandas as pd
df = pd.DataFrame({"Age": [22.0, 38.0, 26.0], "Sex": ["male", "female", "female"]})
items = [1, 2, 3]
pathlib.Path("keep.txt").write_text("original")
os.makedirs("keepdir", exist_ok=True)
pathlib.Path("keepdir/inner.txt").write_text("original")
log = open("log.txt", "a")
log.write("parent\n"); log.flush()
mm = np.memmap("mm.dat", dtype="uint8", mode="w+", shape=(16,))
mm[:] = 1; mm.flush()
libc = ctypes.CDLL(None)
"""

# A fingerprint of the user namespace: names, types, identities, and the data of the frame, the
# list and the memory map.
FINGERPRINT = (
    "sorted((k, type(v).__name__, id(v)) for k, v in get_ipython().user_ns.items()"
    " if not k.startswith('_') and k not in ('In', 'Out')) + "
    "[int(pd.util.hash_pandas_object(df).sum()), list(df.columns), items, mm.tolist(),"
    " os.getcwd(), os.environ.get('CELLGUARD_PROBE'), get_ipython().execution_count]"
)


class DryRunKernel:
    """A kernel in its own directory with the agent attached through the bootstrap source."""

    def __init__(self, session, directory):
        self.session, self.directory = session, directory
        self.replies = {}
        self.outputs = []  # stream and display messages seen while waiting for replies

    def send(self, kind: str, **fields) -> str:
        request_id = uuid.uuid4().hex
        self.session._send(
            "comm_msg",
            {"comm_id": self.session.comm_id, "data": {"type": kind, "id": request_id, **fields}},
        )
        return request_id

    def reply(self, request_id: str, timeout: float = 30) -> dict:
        deadline = time.monotonic() + timeout
        while request_id not in self.replies:
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"no reply to {request_id}"
            try:
                msg = self.session.client.get_iopub_msg(timeout=remaining)
            except Exception:
                continue
            if msg["msg_type"] == "comm_msg":
                data = msg["content"]["data"]
                self.replies[data.get("id")] = data
            elif msg["msg_type"] in ("stream", "display_data", "execute_result", "error"):
                self.outputs.append(msg)
        return self.replies.pop(request_id)

    def dry_run(self, code: str, **options) -> dict:
        reply = self.reply(self.send("dry_run", code=code, **options), timeout=60)
        assert reply["ok"] and reply["type"] == "dry_run", reply
        return reply

    def children(self) -> list:
        """The kernel's child processes (zombies included)."""
        pid = self.session.manager.provisioner.process.pid
        found = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat") as stat:
                        fields = stat.read().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                if int(fields[1]) == pid:
                    found.append((int(entry), fields[0]))
        return found


@pytest.fixture(scope="module")
def dry(tmp_path_factory):
    directory = tmp_path_factory.mktemp("dry-run")
    session = _start(_kernel_env(), directory)
    try:
        result = session.execute(bootstrap_source(), silent=True, store_history=False)
        assert result["status"] == "ok", result
        session.open_comm()
        setup = session.execute(SETUP)
        assert setup["status"] == "ok", setup
        yield DryRunKernel(session, directory)
    finally:
        session.client.stop_channels()
        session.manager.shutdown_kernel(now=True)


@pytest.fixture
def unchanged(dry):
    """Asserts after the test that the parent's namespace, files, outputs and children are as before."""
    files = _files(dry.directory)
    before = dry.session.evaluate(FINGERPRINT)
    dry.outputs.clear()
    yield
    assert dry.session.evaluate(FINGERPRINT) == before
    assert _files(dry.directory) == files
    assert dry.outputs == []  # nothing the child printed or displayed reached the notebook
    assert dry.children() == []  # no child left, no zombie


def _files(directory) -> dict:
    found = {}
    for root, _, names in os.walk(directory):
        for name in names:
            path = os.path.join(root, name)
            with open(path, "rb") as handle:
                found[os.path.relpath(path, directory)] = handle.read()
    return found


def test_a_crash_reports_the_exception_its_line_and_the_isolation(dry, unchanged):
    reply = dry.dry_run("total = df['Age'].sum()\nfare = df['Fare']\nprint('never')")
    assert reply["outcome"] == "crash"
    error = reply["exception"]
    assert (error["name"], error["message"], error["line"]) == ("KeyError", "'Fare'", 2)
    assert error["frames"] and all({"file", "line", "function"} <= set(f) for f in error["frames"])
    isolation = reply["isolation"]
    assert isolation["descriptors"] and isolation["memory_cap"] and isolation["nice"] == 10
    assert isolation["landlock"] >= 1 and isolation["seccomp"] is True
    assert 0 < reply["elapsed_ms"] < 3000 and reply["run_ms"] <= reply["elapsed_ms"]


def test_a_crash_inside_a_function_points_at_the_calling_line(dry, unchanged):
    code = "def fare(frame):\n    return frame['Fare']\n\nx = 1\nfare(df)"
    reply = dry.dry_run(code)
    assert reply["exception"]["name"] == "KeyError" and reply["exception"]["line"] == 5
    assert "fare" in [frame["function"] for frame in reply["exception"]["frames"]]


def test_magics_run_as_in_ipython(dry, unchanged):
    reply = dry.dry_run("%time x = df['Fare']")
    assert reply["outcome"] == "crash" and reply["exception"]["name"] == "KeyError", reply
    who = dry.dry_run("%who_ls")
    assert who["outcome"] == "completed", who
    assert dry.dry_run("1 +")["exception"]["name"] == "SyntaxError"


def test_importing_a_module_first_in_the_copy_writes_no_bytecode(dry, unchanged):
    (dry.directory / "helper_module.py").write_text("VALUE = 41\n")
    try:
        reply = dry.dry_run("import helper_module\nanswer = helper_module.VALUE + 1")
        assert reply["outcome"] == "completed", reply
        assert not (dry.directory / "__pycache__").exists()
    finally:
        (dry.directory / "helper_module.py").unlink()


def test_a_cell_that_mutates_everything_completes_and_the_parent_is_unchanged(dry, unchanged):
    code = (
        "df['Age'] = 0\ndf.drop(columns=['Sex'], inplace=True)\nitems.append(4)\nmm[:] = 7\n"
        "mm.flush()\nos.environ['CELLGUARD_PROBE'] = 'child'\nos.chdir('/')\nnew_name = 1\n"
        "del df\nprint('hidden'); display(items)\nimport sys\nprint('err', file=sys.stderr)"
    )
    reply = dry.dry_run(code)
    assert reply["outcome"] in ("completed", "unknown"), reply
    if reply["outcome"] == "unknown":  # mm.flush may meet the private copy: never a crash
        assert reply["reason"]["code"] == "isolation_suspect", reply
    assert "new_name" not in dry.session.evaluate("list(get_ipython().user_ns)")


@pytest.mark.parametrize(
    "code, effect, line",
    [
        ("x = 1\nopen('new.txt', 'w').write('escaped')", "write-file", 2),
        ("open('keep.txt', 'a').write('escaped')", "write-file", 1),
        ("np.save('arr.npy', np.arange(3))", "write-file", 1),
        ("df.to_csv('out.csv')", "write-file", 1),
        ("pathlib.Path('keep.txt').write_text('escaped')", "write-file", 1),
        ("os.remove('keep.txt')", "remove-file", 1),
        ("pathlib.Path('keep.txt').unlink()", "remove-file", 1),
        ("os.rename('keep.txt', 'moved.txt')", "rename-file", 1),
        ("shutil.rmtree('keepdir')", "remove-directory", 1),
        ("os.makedirs('made/deep')", "make-directory", 1),
        ("import subprocess\nsubprocess.run(['touch', 'sub.txt'])", "subprocess", 2),
        ("os.system('touch system.txt')", "subprocess", 1),
        ("!touch shell.txt", "subprocess", 1),
        ("os.kill(os.getppid(), 9)", "signal", 1),
        ("ctypes.CDLL('libm.so.6')", "native-library", 1),
        ("import sqlite3\nsqlite3.connect('db.sqlite')", "database", 2),
        (
            "t = threading.Thread(target=lambda: open('thread.txt', 'w').write('x'))\n"
            "t.start(); t.join()",
            "write-file",
            2,
        ),
    ],
)
def test_python_level_effects_stop_the_run_at_their_line(dry, unchanged, code, effect, line):
    reply = dry.dry_run(code)
    assert reply["outcome"] == "unknown", reply
    reason = reply["reason"]
    assert reason["code"] == "outside_effect" and reason["layer"] == "audit-hook", reason
    assert (reason["effect"], reason["line"]) == (effect, line)


def test_pandas_parquet_writer_is_stopped(dry, unchanged):
    pytest.importorskip("pyarrow")
    reply = dry.dry_run("df.to_parquet('out.parquet')")
    assert reply["outcome"] == "unknown" and reply["reason"]["code"] == "outside_effect"


@pytest.mark.parametrize(
    "code",
    [
        "fd = libc.open(b'native.txt', os.O_WRONLY | os.O_CREAT, 0o644)\nlibc.write(fd, b'x', 1)",
        "libc.unlink(b'keep.txt')",
        "libc.rename(b'keep.txt', b'moved.txt')",
        "libc.socket(2, 1, 0)",
        "libc.kill(os.getppid(), 9)",
        "libc.fork()",
    ],
)
def test_native_effects_are_killed_by_seccomp(dry, unchanged, code):
    reply = dry.dry_run(code)
    assert reply["outcome"] == "unknown"
    assert reply["reason"] == dict(reply["reason"], code="outside_effect", layer="seccomp"), reply


def test_a_file_the_user_opened_earlier_is_never_written(dry, unchanged):
    reply = dry.dry_run("log.write('escaped\\n'); log.flush()\nos.write(log.fileno(), b'raw\\n')")
    assert reply["outcome"] == "completed", reply  # the writes went to /dev/null
    assert (dry.directory / "log.txt").read_text() == "parent\n"


@pytest.fixture
def listener():
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(5)
    server.setblocking(False)
    yield server
    server.close()


def _received_nothing(server) -> bool:
    return not select.select([server], [], [], 0.3)[0]


def test_sockets_reach_no_listener(dry, unchanged, listener):
    port = listener.getsockname()[1]
    code = f"import socket\nsocket.create_connection(('127.0.0.1', {port})).sendall(b'leak')"
    reply = dry.dry_run(code)
    assert reply["reason"] == dict(reply["reason"], effect="network", line=2), reply
    reply = dry.dry_run(
        f"import urllib.request\nurllib.request.urlopen('http://127.0.0.1:{port}/')"
    )
    assert reply["reason"]["effect"] == "network"
    assert _received_nothing(listener)


def test_a_socket_opened_earlier_sends_nothing(dry, listener):
    port = listener.getsockname()[1]
    dry.session.execute(
        f"import socket\nconnection = socket.create_connection(('127.0.0.1', {port}))"
    )
    accepted, _ = listener.accept()
    try:
        accepted.setblocking(False)
        reply = dry.dry_run("connection.sendall(b'leak')")
        assert reply["outcome"] == "unknown", reply  # never a crash
        assert reply["reason"] == dict(reply["reason"], code="outside_effect", layer="seccomp")
        time.sleep(0.2)
        with pytest.raises(BlockingIOError):
            accepted.recv(10)
    finally:
        accepted.close()
        dry.session.execute("connection.close()")


def test_the_budget_kills_and_leaves_no_zombie(dry, unchanged):
    started = time.monotonic()
    reply = dry.dry_run("while True:\n    pass", budget_ms=500)
    assert reply["outcome"] == "unknown" and reply["reason"] == {"code": "budget", "budget_ms": 500}
    assert time.monotonic() - started < 5


def test_the_parent_answers_while_a_long_child_runs_and_cancel_stops_it(dry, unchanged):
    run = dry.send("dry_run", code="import time\ntime.sleep(10)", budget_ms=20000)
    time.sleep(0.3)
    started = time.monotonic()
    hello = dry.reply(dry.send("hello"), timeout=5)
    assert hello["ok"] and time.monotonic() - started < 2
    executed = dry.session.execute("answer = 6 * 7\nanswer", store_history=False)
    assert executed["status"] == "ok"
    busy = dry.reply(dry.send("dry_run", code="1"))
    assert busy["reason"] == {"code": "busy", "running": run}
    assert len(dry.children()) == 1
    cancelled = dry.reply(dry.send("dry_run_cancel", run=run))
    assert cancelled["cancelled"] is True
    reply = dry.reply(run, timeout=5)
    assert reply["outcome"] == "unknown" and reply["reason"] == {"code": "cancelled"}
    assert time.monotonic() - started < 5
    dry.session.execute("del answer", store_history=False)


def test_the_memory_cap_holds_for_new_and_copied_memory(dry, unchanged):
    reply = dry.dry_run("block = bytearray(2 << 30)", memory_mb=256)
    assert reply["outcome"] == "unknown" and reply["reason"]["code"] == "memory_cap", reply
    dry.session.execute("big = np.ones((300 << 20) // 8)", store_history=False)
    try:
        reply = dry.dry_run("big += 1", memory_mb=100)
        assert reply["reason"] == {"code": "memory_cap", "memory_mb": 100}, reply
        assert dry.session.evaluate("float(big.max())") == 1.0
    finally:
        dry.session.execute("del big", store_history=False)


def test_a_kernel_that_initialised_a_gpu_runtime_is_not_forked(dry):
    dry.session.execute(
        "import sys, types\n"
        "_fake_torch = types.ModuleType('torch')\n"
        "_fake_torch.cuda = types.SimpleNamespace(is_initialized=lambda: True)\n"
        "sys.modules['torch'] = _fake_torch",
        store_history=False,
    )
    try:
        reply = dry.dry_run("1")
        assert reply["reason"] == {"code": "gpu", "runtime": "torch.cuda"}
        assert dry.children() == []
    finally:
        dry.session.execute("del sys.modules['torch'], _fake_torch", store_history=False)


def test_requests_are_validated(dry):
    reply = dry.reply(dry.send("dry_run", code=3))
    assert reply == dict(reply, ok=False, error="bad_request", field="code")
    reply = dry.reply(dry.send("dry_run", code="1", budget_ms="soon"))
    assert reply == dict(reply, ok=False, error="bad_request", field="budget_ms")
    assert dry.reply(dry.send("dry_run_cancel", run="nothing"))["cancelled"] is False


def test_the_dry_run_is_not_recorded_in_history(dry):
    dry.dry_run("history_marker = 1")
    cells = dry.reply(dry.send("history"))["cells"]
    assert not any("history_marker" in cell["source"] for cell in cells)
    assert json.dumps(cells)


def test_a_request_served_on_a_subshell_thread_still_forks_on_the_main_thread(dry, unchanged):
    """JupyterLab sends comm messages on a subshell (a thread of its own in ipykernel 7)."""
    client = dry.session.client
    client.control_channel.send(client.session.msg("create_subshell_request", {}))
    created = client.control_channel.get_msg(timeout=10)
    if created["content"].get("status") != "ok":
        pytest.skip("this kernel has no subshells")
    subshell = created["content"]["subshell_id"]

    def on_subshell(code: str) -> dict:
        request_id = uuid.uuid4().hex
        data = {"type": "dry_run", "id": request_id, "code": code}
        message = client.session.msg("comm_msg", {"comm_id": dry.session.comm_id, "data": data})
        message["header"]["subshell_id"] = subshell
        client.shell_channel.send(message)
        return dry.reply(request_id)

    try:
        reply = on_subshell("x = 1\ny = df['Fare']")
        assert reply["outcome"] == "crash", reply
        assert (reply["exception"]["name"], reply["exception"]["line"]) == ("KeyError", 2)
        # Without the main thread's loop, the subshell's thread would have to fork: refused.
        dry.session.execute(
            "_loop, _cellguard.main_loop = _cellguard.main_loop, None", False, False
        )
        assert on_subshell("1")["reason"] == {"code": "not_main_thread"}
    finally:
        dry.session.execute("_cellguard.main_loop = _loop; del _loop", False, False)
        delete = client.session.msg("delete_subshell_request", {"subshell_id": subshell})
        client.control_channel.send(delete)
        client.control_channel.get_msg(timeout=10)
