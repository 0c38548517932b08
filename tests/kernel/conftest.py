"""A real IPython kernel (jupyter_client, no browser) talking to cellguard over its comm.

Two module-scoped fixtures: `embedded_kernel` attaches through the bootstrap source the front end
sends (the kernel cannot import `cellguard`: it starts outside the repo, with the package hidden),
`package_kernel` imports `cellguard.kernel` from the repo.
"""

import json
import os
import queue
import sys
import uuid
from pathlib import Path

import pytest
from jupyter_client.manager import start_new_kernel

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:  # `pytest` (unlike `python -m pytest`) does not put the repo first
    sys.path.insert(0, str(REPO))

from cellguard.kernel.bootstrap import bootstrap_source  # noqa: E402

TIMEOUT = 30


class KernelSession:
    """Runs code and sends cellguard requests to one kernel."""

    def __init__(self, manager, client):
        self.manager = manager
        self.client = client
        self.comm_id = None

    def execute(self, code: str, silent: bool = False, store_history: bool = True) -> dict:
        """Runs `code`; returns the execute_reply content plus the `stdout` it printed."""
        printed = []

        def on_output(msg):
            if msg["msg_type"] == "stream":
                printed.append(msg["content"]["text"])
            elif msg["msg_type"] == "error":
                printed.append("\n".join(msg["content"]["traceback"]))

        reply = self.client.execute_interactive(
            code, silent=silent, store_history=store_history, timeout=TIMEOUT, output_hook=on_output
        )
        return dict(reply["content"], stdout="".join(printed))

    def evaluate(self, expression: str):
        """The value of a JSON-able expression evaluated in the kernel (without touching history)."""
        result = self.execute(f"print(__import__('json').dumps({expression}))", store_history=False)
        assert result["status"] == "ok", result["stdout"]
        return json.loads(result["stdout"])

    def open_comm(self) -> None:
        self.comm_id = uuid.uuid4().hex
        self._send("comm_open", {"comm_id": self.comm_id, "target_name": "cellguard", "data": {}})

    def request(self, kind: str, **fields) -> dict:
        if self.comm_id is None:
            self.open_comm()
        request_id = uuid.uuid4().hex
        self._send(
            "comm_msg",
            {"comm_id": self.comm_id, "data": {"type": kind, "id": request_id, **fields}},
        )
        return self.reply_to(request_id)

    def reply_to(self, request_id: str) -> dict:
        while True:
            try:
                msg = self.client.get_iopub_msg(timeout=TIMEOUT)
            except queue.Empty:
                raise AssertionError(f"no reply to request {request_id}") from None
            content = msg["content"]
            if msg["msg_type"] == "comm_close" and content.get("comm_id") == self.comm_id:
                raise AssertionError("the kernel closed the cellguard comm")
            if msg["msg_type"] == "comm_msg" and content["data"].get("id") == request_id:
                return content["data"]

    def summarize(self, *names, **options) -> dict:
        reply = self.request("summarize", names=list(names), options=options)
        assert reply["ok"], reply
        return reply["summary"]

    def _send(self, msg_type: str, content: dict) -> None:
        self.client.shell_channel.send(self.client.session.msg(msg_type, content))


def _start(env: dict, cwd: Path) -> KernelSession:
    # The kernelspec runs `python`, which jupyter_client maps to this interpreter (the venv's).
    manager, client = start_new_kernel(
        kernel_name="python3", env=env, cwd=str(cwd), startup_timeout=60
    )
    return KernelSession(manager, client)


def _kernel_env(**extra) -> dict:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env.update(extra)
    return env


# Classes under torch's module names (torch itself is too big for CI), made in the kernel.
TORCH_LOOKALIKES = r"""
def _fake(module, name, bases=(), body=None):
    cls = type(name, bases, dict(body or {}))
    cls.__module__ = module
    return cls
TorchDataset = _fake("torch.utils.data.dataset", "Dataset")
"""


# A user's kernel usually runs in an environment without cellguard. The repo's venv may have it
# installed (the demo and UI tests install it in development mode), so the embedded-mode kernel
# drops every sys.path entry that holds the package, before any user code runs.
HIDE_CELLGUARD = """
import os, sys
sys.path[:] = [p for p in sys.path if not os.path.isdir(os.path.join(p or ".", "cellguard"))]
"""


@pytest.fixture(scope="module")
def embedded_kernel(tmp_path_factory):
    site = tmp_path_factory.mktemp("site")
    (site / "sitecustomize.py").write_text(HIDE_CELLGUARD)
    env = _kernel_env(PYTHONPATH=str(site))
    session = _start(env, tmp_path_factory.mktemp("notebooks"))
    try:
        found = session.evaluate(
            "__import__('importlib.util').util.find_spec('cellguard') is not None"
        )
        assert not found, "the embedded-mode kernel must not see the cellguard package"
        result = session.execute(bootstrap_source(), silent=True, store_history=False)
        assert result["status"] == "ok", result
        yield session
    finally:
        session.client.stop_channels()
        session.manager.shutdown_kernel(now=True)


@pytest.fixture(scope="module")
def package_kernel(tmp_path_factory):
    session = _start(_kernel_env(PYTHONPATH=str(REPO)), REPO)
    try:
        result = session.execute(
            "import cellguard.kernel; cellguard.kernel.attach()", store_history=False
        )
        assert result["status"] == "ok", result
        yield session
    finally:
        session.client.stop_channels()
        session.manager.shutdown_kernel(now=True)


@pytest.fixture(params=["embedded", "package"])
def kernel(request):
    """Both modes, for tests whose behaviour must not depend on how the agent got there."""
    return request.getfixturevalue(f"{request.param}_kernel")
