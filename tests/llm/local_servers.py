"""Local servers for the LLM tests, all on 127.0.0.1: a real `jupyter server` with the cellguard
extension (a subprocess on a free port), an endpoint that never answers, and one that redirects.
See fake_openai.py for the replaying OpenAI-compatible endpoint."""

import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TOKEN = "cellguard-test-token"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def jupyter_server(root: Path, env: dict, *args: str):
    """A `jupyter server` with the cellguard extension and `args`; yields its base URL."""
    port = free_port()
    full_env = dict(os.environ)
    full_env.pop("OPENAI_API_KEY", None)
    full_env.update(
        PYTHONPATH=os.pathsep.join([str(REPO), str(Path(__file__).parent)]),
        JUPYTER_CONFIG_DIR=str(root / "config"),
        JUPYTER_DATA_DIR=str(root / "data"),
        JUPYTER_RUNTIME_DIR=str(root / "runtime"),
        **env,
    )
    log = open(root / "server.log", "wb")  # closed in the finally below
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jupyter_server",
            "--no-browser",
            "--allow-root",
            f"--port={port}",
            "--ip=127.0.0.1",
            f"--IdentityProvider.token={TOKEN}",
            f"--ServerApp.root_dir={root}",
            "--ServerApp.jpserver_extensions={'cellguard.server': True}",
            *args,
        ],
        env=full_env,
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(f"{base}/api/status?token={TOKEN}", timeout=1)
                break
            except (urllib.error.URLError, ConnectionError):
                if proc.poll() is not None:
                    raise RuntimeError((root / "server.log").read_text()) from None
                time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        log.close()


def call(base, path, body=None, token=TOKEN, timeout=30):
    """(status, text) of a GET (no body) or a POST of `body` as JSON to the Jupyter server."""
    req = urllib.request.Request(
        f"{base}{path}",
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"token {token}", "Content-Type": "application/json"},
        method="GET" if body is None else "POST",
    )
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def start_check(base, body) -> http.client.HTTPConnection:
    """POSTs a check and leaves the connection open: closing it is what a browser's cancel does."""
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    conn.request(
        "POST",
        "/cellguard/llm/check",
        body=json.dumps(body).encode(),
        headers={"Authorization": f"token {TOKEN}", "Content-Type": "application/json"},
    )
    return conn


def wait_until(condition, timeout_s: float) -> bool:
    """Polls `condition` until it holds (True) or `timeout_s` passes (False)."""
    end = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


class HungEndpoint:
    """Accepts connections, reads what comes, never answers. `accepted` counts connections, `open`
    those the client has not closed yet."""

    def __init__(self):
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.accepted = 0
        self.open = 0
        self._lock = threading.Lock()
        self._stop = False
        self._conns = []

    @property
    def base_url(self):
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}/v1"

    def _serve(self):
        while not self._stop:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with self._lock:
                self.accepted += 1
                self.open += 1
                self._conns.append(conn)
            threading.Thread(target=self._drain, args=(conn,), daemon=True).start()

    def _drain(self, conn):
        try:
            while conn.recv(65536):
                pass
        except OSError:
            pass
        with self._lock:
            self.open -= 1

    def __enter__(self):
        threading.Thread(target=self._serve, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self._stop = True
        self.sock.close()
        for conn in self._conns:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            conn.close()


class Redirector:
    """Answers every POST to `/<status>/...` with that 3xx status, a `Location` of `target` and a
    body that must never come back to a client. Records the requests: (path, headers)."""

    BODY = "INTERNAL-ONLY redirect body: db-password=hunter2"

    def __init__(self, target: str):
        self.target = target
        self.requests = []
        redirector = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                redirector.requests.append((self.path, dict(self.headers)))
                payload = Redirector.BODY.encode()
                self.send_response(int(self.path.split("/")[1]))
                self.send_header("Location", redirector.target)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True

    def url(self, status: int) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/{status}/v1"

    def __enter__(self):
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
