"""A local OpenAI-compatible endpoint for tests: stdlib http.server on 127.0.0.1, port 0, in a
thread. It replays a recording (`recordings/*.json`): `steps` served in order (the last one
repeats), each `{status, content | body, headers?, delay_s?}`; `reject_structured: true` answers
400 to any request with a `response_format`, like endpoints without structured output."""

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

RECORDINGS = Path(__file__).parent / "recordings"


def completion(content):
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "model": "fake",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
    }


class FakeOpenAI:
    def __init__(self, recording):
        if isinstance(recording, str):
            recording = json.loads((RECORDINGS / f"{recording}.json").read_text())
        self.steps = recording["steps"]
        self.reject_structured = recording.get("reject_structured", False)
        self.requests = []  # (path, headers, body)
        self._served = 0
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                with fake._lock:
                    fake.requests.append((self.path, dict(self.headers), body))
                    if fake.reject_structured and "response_format" in body:
                        step = {
                            "status": 400,
                            "body": json.dumps(
                                {
                                    "error": {
                                        "message": "response_format 'json_schema' is not supported"
                                    }
                                }
                            ),
                        }
                    else:
                        step = fake.steps[min(fake._served, len(fake.steps) - 1)]
                        fake._served += 1
                if step.get("delay_s"):
                    time.sleep(step["delay_s"])
                if not self.path.endswith("/chat/completions"):
                    step = {"status": 404, "body": "not found"}
                payload = (
                    step["body"].encode()
                    if "body" in step
                    else json.dumps(completion(step["content"])).encode()
                )
                try:
                    self.send_response(step["status"])
                    self.send_header("Content-Type", "application/json")
                    for k, v in step.get("headers", {}).items():
                        self.send_header(k, v)
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            # Recorded too: a client that followed a redirect may have switched to GET.
            do_GET = do_POST

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self):
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
