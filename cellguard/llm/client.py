"""THE LLM client of cellguard: OpenAI-compatible `/v1/chat/completions`.

One implementation of request building, retries and the structured-output fallback, driven either
synchronously (stdlib `urllib`, for the CLI worker) or asynchronously (`tornado.httpclient`, for the
Jupyter server extension). The exchange logic is a generator that yields the HTTP requests to make
(and the pauses to take) and receives the responses, so both drivers share it.

- Structured output: the request carries `response_format: {type: "json_schema", ...}` when a schema
  is given; an endpoint that rejects it (HTTP 400 mentioning `response_format` / `json_schema`) is
  remembered per endpoint and model, and asked again with the prompt's own instructions only.
- Retries with exponential backoff (and `Retry-After` when short) on 429, 5xx, timeouts and
  connection errors; other errors fail at once. `deadline_s` bounds one call, retries included.
- The API key comes from the config or the environment (`CELLGUARD_LLM_API_KEY`, then
  `OPENAI_API_KEY`); it is sent only as the `Authorization` header of a request to the configured
  URL: redirects are never followed (a 3xx is an error), since an open redirect on the key's
  origin would otherwise carry the key elsewhere. It is scrubbed from error texts before they are
  shortened, and what is left of it at the cut too.
- Errors are `LLMError`s: a `code` with fields for programs (`ERROR_CODES`), a message for people.
  The endpoint's own error text is quoted only for a trusted endpoint (`LLMConfig.trusted`): a URL
  a browser named may be an internal service whose answers must not come back (SSRF).
"""

from __future__ import annotations

import json
import math
import os
import re
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Generator, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

__all__ = [
    "ERROR_CODES",
    "Client",
    "InvalidSetting",
    "LLMConfig",
    "LLMError",
    "config_from_env",
    "finite_number",
    "redact",
    "scrub_key",
]

# What `LLMError.code` can be, and the fields each carries besides `message` (and `tries`, the
# requests made, on errors from the endpoint). labextension/src/llm.ts reads these.
ERROR_CODES = {
    "not_configured": (),
    "invalid_request": ("field",),  # the server's check request (cellguard/server)
    "prompt_too_long": ("limit",),  # the server's check request
    "timeout": ("seconds",),  # one request got no answer within `timeout_s`
    "deadline": ("seconds",),  # the whole call (retries included) passed `deadline_s`
    "unreachable": (),
    "http_status": ("status",),
    "redirect_refused": ("status",),
    "bad_reply": (),  # HTTP 200 without a chat completion in it
    "refused": (),  # the model refused to answer
    "empty_answer": (),
    "internal": (),
}

# Bounds the server reads an answer within; a larger one is an error, not a memory spike.
MAX_REPLY_BYTES = 8 * 1024 * 1024


class LLMError(Exception):
    """The endpoint gave no usable answer. `code` (one of ERROR_CODES) and `fields` are what
    programs read; the message is for people and never holds the key."""

    def __init__(self, code: str, message: str, **fields: Any):
        assert code in ERROR_CODES, code
        super().__init__(message)
        self.code = code
        self.fields = fields

    @property
    def message(self) -> str:
        return str(self.args[0])

    def to_json(self) -> dict:
        return {"code": self.code, **self.fields, "message": self.message}


class InvalidSetting(ValueError):
    """A setting (from the environment, the config or a check request) out of its domain."""

    def __init__(self, name: str, message: str):
        super().__init__(message)
        self.name = name


def finite_number(name: str, value: Any, low: float, high: float) -> float:
    """`value` as a float in [low, high]: a number (not a bool), not NaN, not infinite."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidSetting(name, f"{name} must be a number")
    number = float(value)
    if not math.isfinite(number) or not low <= number <= high:
        raise InvalidSetting(name, f"{name} must be a finite number from {low:g} to {high:g}")
    return number


def _whole_number(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidSetting(name, f"{name} must be a whole number from {low} to {high}")
    return value


@dataclass(frozen=True)
class LLMConfig:
    base_url: str = ""
    model: str = ""
    api_key: str | None = field(default=None, repr=False)
    temperature: float | None = None
    timeout_s: float = 60.0
    retries: int = 3
    deadline_s: float = 180.0
    backoff_s: float = 1.0
    max_backoff_s: float = 30.0
    # The endpoint's error texts may be quoted in errors (the configured one, not a browser's).
    trusted: bool = True

    def __post_init__(self):
        if self.temperature is not None:
            finite_number("temperature", self.temperature, 0.0, 2.0)
        finite_number("timeout_s", self.timeout_s, 0.001, 3600.0)
        finite_number("deadline_s", self.deadline_s, 0.001, 86400.0)
        finite_number("backoff_s", self.backoff_s, 0.0, 3600.0)
        finite_number("max_backoff_s", self.max_backoff_s, 0.0, 3600.0)
        _whole_number("retries", self.retries, 0, 100)

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


# The one reading of the environment, for the CLI worker and the server extension alike:
# variable -> (LLMConfig field, parser).
ENVIRONMENT = {
    "CELLGUARD_LLM_BASE_URL": ("base_url", str),
    "CELLGUARD_LLM_MODEL": ("model", str),
    "CELLGUARD_LLM_TEMPERATURE": ("temperature", float),
    "CELLGUARD_LLM_TIMEOUT_S": ("timeout_s", float),
    "CELLGUARD_LLM_RETRIES": ("retries", int),
    "CELLGUARD_LLM_DEADLINE_S": ("deadline_s", float),
}


def config_from_env(env: Mapping[str, str] | None = None) -> LLMConfig:
    """The configuration the environment gives; `InvalidSetting` names a bad variable."""
    env = os.environ if env is None else env
    values: dict = {}
    for variable, (name, parse) in ENVIRONMENT.items():
        text = env.get(variable, "").strip()
        if not text:
            continue
        try:
            values[name] = parse(text)
        except ValueError:
            raise InvalidSetting(name, f"{variable} must be a {parse.__name__}") from None
    temperature = values.get("temperature")
    if temperature is not None and temperature < 0:  # negative: the endpoint's default
        values["temperature"] = None
    key = env.get("CELLGUARD_LLM_API_KEY") or env.get("OPENAI_API_KEY")
    try:
        return LLMConfig(api_key=key or None, **values)
    except InvalidSetting as e:
        variable = next(v for v, (name, _) in ENVIRONMENT.items() if name == e.name)
        raise InvalidSetting(e.name, f"{variable}: {e}") from None


# Runs of the characters API keys are made of: a run that holds a piece of the key is masked.
_KEY_RUN = re.compile(r"[A-Za-z0-9_\-]+")
# A run that is a piece of the key this long, or shares this many consecutive characters with it,
# is masked; shorter pieces carry too little of a key to matter.
_MIN_KEY_PIECE = 4
_KEY_WINDOW = 6


def scrub_key(text: str, key: str | None) -> str:
    """`text` without the key, nor any piece of it long enough to matter."""
    if not key:
        return text
    text = text.replace(key, "***")
    windows = {key[i : i + _KEY_WINDOW] for i in range(len(key) - _KEY_WINDOW + 1)}

    def mask(match: re.Match) -> str:
        run = match[0]
        if len(run) >= _MIN_KEY_PIECE and run in key:
            return "***"
        if any(run[i : i + _KEY_WINDOW] in windows for i in range(len(run) - _KEY_WINDOW + 1)):
            return "***"
        return run

    return _KEY_RUN.sub(mask, text)


def redact(text: Any, key: str | None, limit: int = 200) -> str:
    """`text` on one line, at most `limit` characters, without the key: scrubbed before it is
    shortened, and again after, since the cut can leave a piece of the key at the end."""
    # Only the head can be shown: a key that starts in it ends within `len(key)` characters.
    head = str(text)[: 4 * limit + 2 * len(key or "")]
    text = scrub_key(" ".join(head.split()), key)
    if len(text) > limit:
        text = scrub_key(text[:limit], key) + "…"
    return text


@dataclass
class _Request:
    url: str
    headers: dict
    body: bytes
    timeout_s: float


@dataclass
class _Sleep:
    seconds: float


@dataclass
class _Response:
    status: int  # 0 when no HTTP response came
    body: bytes = b""
    headers: dict = field(default_factory=dict)
    failure: str = ""  # with status 0: "timeout" or "unreachable"
    reason: str = ""  # why it was unreachable (for people)


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

    def build_request(self, messages: list, schema: dict | None, timeout_s: float) -> _Request:
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
        return _Request(
            self.config.completions_url(), headers, json.dumps(body).encode(), timeout_s
        )

    def _error(self, code: str, message: str, quoted: Any = None, **fields: Any) -> LLMError:
        """An error whose message may quote the endpoint's text (only a trusted endpoint's)."""
        if quoted is not None and self.config.trusted:
            message = f"{message}: {redact(quoted, self.config.api_key)}"
        return LLMError(code, redact(message, self.config.api_key, limit=400), **fields)

    def _delay(self, attempt: int, response: _Response) -> float:
        delay = min(self.config.backoff_s * (2**attempt), self.config.max_backoff_s)
        retry_after = {k.lower(): v for k, v in response.headers.items()}.get("retry-after")
        try:
            if retry_after is not None:
                delay = max(delay, min(float(retry_after), self.config.max_backoff_s))
        except ValueError:
            pass
        return delay if math.isfinite(delay) else self.config.max_backoff_s

    def _exchange(self, messages: list, schema: dict | None) -> Generator[Any, Any, str]:
        config = self.config
        if not config.configured:
            raise LLMError("not_configured", "no LLM endpoint configured (base URL and model)")
        deadline = time.monotonic() + config.deadline_s
        attempt = 0  # retries used
        tries = 0  # requests made

        def past_deadline() -> LLMError:
            return LLMError(
                "deadline",
                f"no answer from the LLM endpoint within {config.deadline_s:g} s "
                f"({tries} requests made)",
                seconds=config.deadline_s,
                tries=tries,
            )

        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise past_deadline()
            structured = schema is not None and self.structured_supported()
            timeout_s = min(config.timeout_s, remaining)
            response: _Response = yield self.build_request(
                messages, schema if structured else None, timeout_s
            )
            tries += 1
            if response.status == 200:
                return self._content(response.body)
            if 300 <= response.status < 400:
                raise LLMError(
                    "redirect_refused",
                    f"the LLM endpoint answered with a redirect (HTTP {response.status}); redirects "
                    "are not followed, so the API key goes only to the configured URL",
                    status=response.status,
                    tries=tries,
                )
            text = response.body.decode("utf-8", "replace")
            if (
                response.status == 400
                and structured
                and any(w in text for w in ("response_format", "json_schema", "structured"))
            ):
                self._mark_unstructured()
                continue
            if response.failure == "timeout" and timeout_s < config.timeout_s:
                raise past_deadline()  # the deadline cut this request short
            retryable = response.status == 0 or response.status == 429 or response.status >= 500
            if retryable and attempt < config.retries:
                delay = self._delay(attempt, response)
                if time.monotonic() + delay >= deadline:
                    raise past_deadline()
                yield _Sleep(delay)
                attempt += 1
                continue
            raise self._failure(response, text, tries)

    def _failure(self, response: _Response, text: str, tries: int) -> LLMError:
        after = f" after {tries} tries" if tries > 1 else ""
        if response.failure == "timeout":
            seconds = self.config.timeout_s
            message = f"the LLM endpoint's answer timed out ({seconds:g} s){after}"
            return self._error("timeout", message, seconds=seconds, tries=tries)
        if response.status == 0:
            message = f"the LLM endpoint is unreachable{after}"
            return self._error("unreachable", message, response.reason or None, tries=tries)
        message = f"the LLM endpoint answered HTTP {response.status}{after}"
        return self._error("http_status", message, text, status=response.status, tries=tries)

    def _content(self, body: bytes) -> str:
        try:
            data = json.loads(body)
            message = data["choices"][0]["message"]
            content = message.get("content")
        except (ValueError, KeyError, IndexError, TypeError, AttributeError):
            text = body.decode("utf-8", "replace")
            raise self._error("bad_reply", "unexpected reply from the LLM endpoint", text) from None
        if isinstance(content, list):  # content parts
            content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
        if not content or not isinstance(content, str):
            refusal = message.get("refusal")
            if refusal:
                raise self._error("refused", "the LLM refused", refusal)
            raise LLMError("empty_answer", "the LLM answered nothing")
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
                reply = _send_sync(step)
            try:
                step = exchange.send(reply)
            except StopIteration as done:
                return done.value

    async def acomplete(self, messages: list, schema: dict | None = None) -> str:
        """One answer, asynchronously (tornado), on an HTTP client of its own: cancelling this
        coroutine closes its connections at once, and no other call waits for its slots."""
        import asyncio

        from .async_http import open_client, send

        http = open_client()
        try:
            exchange = self._exchange(messages, schema)
            step = next(exchange)
            while True:
                if isinstance(step, _Sleep):
                    await asyncio.sleep(step.seconds)
                    reply = None
                else:
                    reply = await send(http, step)
                try:
                    step = exchange.send(reply)
                except StopIteration as done:
                    return done.value
        finally:
            http.abort()


class _RefuseRedirects(urllib.request.HTTPRedirectHandler):
    """urllib would follow a redirect with the Authorization header, even to another host."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None  # urllib then raises HTTPError with the 3xx status


_OPENER = urllib.request.build_opener(_RefuseRedirects)


def _send_sync(request: _Request) -> _Response:
    req = urllib.request.Request(
        request.url, data=request.body, headers=request.headers, method="POST"
    )
    try:
        try:
            resp = _OPENER.open(req, timeout=request.timeout_s)
            status = resp.status
        except urllib.error.HTTPError as e:  # an HTTP answer all the same
            resp, status = e, e.code
        with resp:
            # A redirect's body is never read: it is not the endpoint's answer.
            body = b"" if 300 <= status < 400 else resp.read(MAX_REPLY_BYTES + 1) or b""
            headers = dict(resp.headers or {})
    except (TimeoutError, OSError) as e:  # URLError is an OSError
        reason = getattr(e, "reason", e)
        if isinstance(reason, TimeoutError) or "timed out" in str(reason):
            return _Response(0, failure="timeout")
        return _Response(0, failure="unreachable", reason=str(reason))
    if len(body) > MAX_REPLY_BYTES:
        return _Response(0, failure="unreachable", reason=f"reply over {MAX_REPLY_BYTES} bytes")
    return _Response(status, body, headers)
