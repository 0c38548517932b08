"""`python -m cellguard.llm`: the worker the Rust CLI (`cellguard bench --llm`) talks to.

JSON lines over stdin/stdout. Request: `{"id", "messages", "n" (answers wanted, default 1),
"temperature"?, "schema"?}`. Reply: `{"id", "ok": true, "contents": [...], "errors": [...]}`
(the answers that came, and why the others did not), or `{"id", "ok": false, "error"}` when none
came or the request was malformed. Requests are answered concurrently
(`CELLGUARD_LLM_CONCURRENCY`, default 4), replies in any order. The endpoint comes from the
environment (see `client.config_from_env`).
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

from .client import Client, InvalidSetting, LLMError, config_from_env, finite_number


def answer(client: Client, request: dict) -> dict:
    rid = request.get("id")
    messages = request.get("messages")
    if not isinstance(messages, list) or not messages:
        return {"id": rid, "ok": False, "error": "the request has no messages"}
    n = max(1, min(int(request.get("n") or 1), 20))
    config = client.config
    if request.get("temperature") is not None:
        temperature = finite_number("temperature", request["temperature"], 0.0, 2.0)
        config = dataclasses.replace(config, temperature=temperature)
    one = Client(config)
    contents, errors = [], []
    for _ in range(n):
        try:
            contents.append(one.complete(messages, request.get("schema")))
        except LLMError as e:
            errors.append(str(e))
    if not contents:
        return {
            "id": rid,
            "ok": False,
            "error": errors[0] if errors else "no answer",
            "errors": errors,
        }
    return {"id": rid, "ok": True, "contents": contents, "errors": errors}


def main() -> int:
    try:
        client = Client(config_from_env())
    except InvalidSetting as e:
        print(f"cellguard.llm: {e}", file=sys.stderr)
        return 2
    lock = threading.Lock()

    def reply(obj: dict) -> None:
        with lock:
            sys.stdout.write(json.dumps(obj) + "\n")
            sys.stdout.flush()

    def handle(line: str) -> None:
        try:
            request = json.loads(line)
            if not isinstance(request, dict):
                raise ValueError("not an object")
        except ValueError as e:
            reply({"id": None, "ok": False, "error": f"bad request line: {e}"})
            return
        try:
            reply(answer(client, request))
        except Exception as e:  # never let one request kill the worker
            reply({"id": request.get("id"), "ok": False, "error": f"{type(e).__name__}: {e}"})

    workers = int(os.environ.get("CELLGUARD_LLM_CONCURRENCY", "4"))
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        for line in sys.stdin:
            if line.strip():
                pool.submit(handle, line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
