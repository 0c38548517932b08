"""The LLM endpoint of the UI tests: OpenAI-compatible, on 127.0.0.1, answering with the recording
named by the request's `model` (tests/ui/llm-recordings/, then tests/llm/recordings/), so that each
test picks its answer through the browser's `llm.model` setting. `GET /seen` lists the
Authorization headers received (to show the server sent the key the browser never saw).

    python tests/ui/fake_llm.py PORT
"""

import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "llm"))
from fake_openai import RECORDINGS, completion  # noqa: E402

SEEN = []
LOCK = threading.Lock()


def recording(model):
    for folder in (HERE / "llm-recordings", RECORDINGS):
        path = folder / f"{model}.json"
        if model.replace("-", "").replace("_", "").isalnum() and path.is_file():
            return json.loads(path.read_text())
    return {
        "steps": [
            {
                "status": 404,
                "body": json.dumps({"error": {"message": f"model {model!r} not found"}}),
            }
        ]
    }


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def _send(self, status, payload):
        body = payload.encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        with LOCK:
            seen = list(SEEN)
        self._send(200, json.dumps({"authorizations": seen}))

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        with LOCK:
            SEEN.append(self.headers.get("Authorization"))
        step = recording(str(body.get("model", "")))["steps"][0]
        if step.get("delay_s"):
            time.sleep(step["delay_s"])
        payload = step["body"] if "body" in step else json.dumps(completion(step["content"]))
        try:
            self._send(step["status"], payload)
        except (BrokenPipeError, ConnectionResetError):
            pass


if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
    server.daemon_threads = True
    server.serve_forever()
