"""THE LLM client of cellguard: OpenAI-compatible `/v1/chat/completions`.

One implementation of request building, retries and the structured-output fallback, driven either
synchronously (stdlib `urllib`, for the CLI worker) or asynchronously (`tornado.httpclient`, for the
Jupyter server extension). The exchange logic is a generator that yields the HTTP requests to make
(and the pauses to take) and receives the responses, so both drivers share it.

- Structured output: the request carries `response_format: {type: "json_schema", ...}` when a schema
  is given; an endpoint that rejects it (HTTP 400 mentioning `response_format` / `json_schema`) is
  remembered per endpoint and model, and asked again with the prompt's own instructions only.
- Retries with exponential backoff (and `Retry-After` when short) on 429, 5xx, timeouts and
  connection errors; other errors fail at once.
- The API key comes from the config or the environment (`CELLGUARD_LLM_API_KEY`, then
  `OPENAI_API_KEY`); it is sent only as the `Authorization` header and scrubbed from error messages.
"""

from __future__ import annotations

import json
import os
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

__all__ = ["Client", "LLMConfig", "LLMError", "config_from_env"]


class LLMError(Exception):
    """The endpoint gave no usable answer; the message is for people and never holds the key."""


@dataclass
class LLMConfig:
    base_url: str = ""
    model: str = ""
    api_key: str | None = field(default=None, repr=False)
    temperature: float | None = None
    timeout_s: float = 60.0
    retries: int = 3
    backoff_s: float = 1.0
    max_backoff_s: float = 30.0

    @property
    def configured(self) -> bool:
        return bool(self.base_url and self.model)

    @property
    def host(self) -> str:
        """The endpoint's host, the only part of the URL we show."""
        return urlparse(self.base_url).hostname or ""

    def completions_url(self) -> str:
        base = self.base_url.rstrip("/")
        if base.endswith("/chat/completions"):
            return base
        if not base.endswith("/v1") and "/v1/" not in base + "/":
            base += "/v1"
        return base + "/chat/completions"


def config_from_env(env: dict | None = None, **overrides: Any) -> LLMConfig:
    env = os.environ if env is None else env
    temperature = env.get("CELLGUARD_LLM_TEMPERATURE")
    config = LLMConfig(
        base_url=env.get("CELLGUARD_LLM_BASE_URL", ""),
        model=env.get("CELLGUARD_LLM_MODEL", ""),
        api_key=env.get("CELLGUARD_LLM_API_KEY") or env.get("OPENAI_API_KEY") or None,
        temperature=float(temperature) if temperature else None,
        timeout_s=float(env.get("CELLGUARD_LLM_TIMEOUT_S", 60)),
        retries=int(env.get("CELLGUARD_LLM_RETRIES", 3)),
    )
    for key, value in overrides.items():
        if value is not None:
            setattr(config, key, value)
    return config


@dataclass
class _Request:
    url: str
    headers: dict
    body: bytes


@dataclass
class _Sleep:
    seconds: float


@dataclass
class _Response:
    status: int  # 0 when no HTTP response came (timeout, connection refused)
    body: bytes = b""
    headers: dict = field(default_factory=dict)
    error: str = ""


# Endpoints (URL + model) that rejected structured output: asked with instructions only afterwards.
_NO_STRUCTURED: set = set()
_NO_STRUCTURED_LOCK = threading.Lock()


class Client:
    def __init__(self, config: LLMConfig):
        self.config = config

    # -- the shared exchange ------------------------------------------------------------------

    def _endpoint_key(self) -> str:
        return f"{self.config.completions_url()}#{self.config.model}"

    def structured_supported(self) -> bool:
        with _NO_STRUCTURED_LOCK:
            return self._endpoint_key() not in _NO_STRUCTURED

    def _mark_unstructured(self) -> None:
        with _NO_STRUCTURED_LOCK:
            _NO_STRUCTURED.add(self._endpoint_key())

    def build_request(self, messages: list, schema: dict | None) -> _Request:
        body: dict = {"model": self.config.model, "messages": messages}
        if self.config.temperature is not None:
            body["temperature"] = self.config.temperature
        if schema is not None:
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "crash_prediction", "schema": schema, "strict": True},
            }
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.config.api_key:
            headers["Authorization"] = f"Bearer {self.config.api_key}"
        return _Request(self.config.completions_url(), headers, json.dumps(body).encode())

    def _scrub(self, text: str) -> str:
        key = self.config.api_key
        if key:
            text = text.replace(key, "***")
        return text

    def _delay(self, attempt: int, response: _Response) -> float:
        delay = min(self.config.backoff_s * (2**attempt), self.config.max_backoff_s)
        retry_after = {k.lower(): v for k, v in response.headers.items()}.get("retry-after")
        try:
            if retry_after is not None:
                delay = max(delay, min(float(retry_after), self.config.max_backoff_s))
        except ValueError:
            pass
        return delay

    def _exchange(self, messages: list, schema: dict | None) -> Generator[Any, Any, str]:
        if not self.config.configured:
            raise LLMError("no LLM endpoint configured (base URL and model)")
        attempt = 0
        while True:
            structured = schema is not None and self.structured_supported()
            response: _Response = yield self.build_request(messages, schema if structured else None)
            if response.status == 200:
                return self._content(response.body)
            text = response.body.decode("utf-8", "replace")
            if (
                response.status == 400
                and structured
                and any(w in text for w in ("response_format", "json_schema", "structured"))
            ):
                self._mark_unstructured()
                continue
            retryable = response.status == 0 or response.status == 429 or response.status >= 500
            if retryable and attempt < self.config.retries:
                yield _Sleep(self._delay(attempt, response))
                attempt += 1
                continue
            what = response.error or f"HTTP {response.status}: {_short(text)}"
            tries = f" after {attempt + 1} tries" if attempt else ""
            raise LLMError(self._scrub(f"the LLM endpoint failed{tries}: {what}"))

    def _content(self, body: bytes) -> str:
        try:
            data = json.loads(body)
            message = data["choices"][0]["message"]
        except (ValueError, KeyError, IndexError, TypeError) as e:
            raise LLMError(
                f"unexpected reply from the LLM endpoint: {_short(body.decode('utf-8', 'replace'))}"
            ) from e
        content = message.get("content")
        if isinstance(content, list):  # content parts
            content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
        if not content:
            refusal = message.get("refusal")
            raise LLMError(
                f"the LLM refused: {_short(refusal)}" if refusal else "the LLM answered nothing"
            )
        return content

    # -- drivers ---------------------------------------------------------------------------------

    def complete(self, messages: list, schema: dict | None = None) -> str:
        """One answer, synchronously (urllib)."""
        exchange = self._exchange(messages, schema)
        step = next(exchange)
        while True:
            if isinstance(step, _Sleep):
                time.sleep(step.seconds)
                reply = None
            else:
                reply = self._send_sync(step)
            try:
                step = exchange.send(reply)
            except StopIteration as done:
                return done.value

    def _send_sync(self, request: _Request) -> _Response:
        req = urllib.request.Request(
            request.url, data=request.body, headers=request.headers, method="POST"
        )
        try:
            with urllib.request.urlopen(req, timeout=self.config.timeout_s) as resp:
                return _Response(resp.status, resp.read(), dict(resp.headers))
        except urllib.error.HTTPError as e:
            return _Response(e.code, e.read() or b"", dict(e.headers or {}))
        except (TimeoutError, OSError, urllib.error.URLError) as e:
            reason = getattr(e, "reason", e)
            kind = "timed out" if "timed out" in str(reason) else f"unreachable ({reason})"
            return _Response(0, error=f"request {kind}")

    async def acomplete(self, messages: list, schema: dict | None = None) -> str:
        """One answer, asynchronously (tornado's AsyncHTTPClient)."""
        import asyncio

        exchange = self._exchange(messages, schema)
        step = next(exchange)
        while True:
            if isinstance(step, _Sleep):
                await asyncio.sleep(step.seconds)
                reply = None
            else:
                reply = await self._send_async(step)
            try:
                step = exchange.send(reply)
            except StopIteration as done:
                return done.value

    async def _send_async(self, request: _Request) -> _Response:
        from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest

        req = HTTPRequest(
            request.url,
            method="POST",
            headers=request.headers,
            body=request.body,
            request_timeout=self.config.timeout_s,
            connect_timeout=min(self.config.timeout_s, 20),
        )
        try:
            resp = await AsyncHTTPClient().fetch(req, raise_error=False)
        except HTTPClientError as e:  # tornado raises 599 (timeouts) even with raise_error=False
            if e.code == 599:
                kind = (
                    "timed out"
                    if "Timeout" in str(e) or "timed out" in str(e)
                    else f"unreachable ({e})"
                )
                return _Response(0, error=f"request {kind}")
            body = e.response.body if e.response is not None else b""
            return _Response(e.code, body or b"", {})
        except Exception as e:  # timeouts and connection errors
            kind = (
                "timed out"
                if "Timeout" in type(e).__name__ or "timed out" in str(e)
                else f"unreachable ({e})"
            )
            return _Response(0, error=f"request {kind}")
        if resp.code == 599:
            err = str(resp.error or "")
            kind = "timed out" if "Timeout" in err or "timed out" in err else f"unreachable ({err})"
            return _Response(0, error=f"request {kind}")
        return _Response(resp.code, resp.body or b"", dict(resp.headers))


def _short(text: Any, limit: int = 200) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit] + "…"
