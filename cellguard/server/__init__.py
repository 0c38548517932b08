"""Jupyter server extension: the LLM check of the browser goes through the server, so the API key
never reaches the browser.

- `POST /cellguard/llm/check` `{"prompt": {"system", "user", "schema"?}, "votes"?, "endpoint"?,
  "model"?, "temperature"?, "timeout_s"?}` -> `{"answers": [raw answer texts], "errors": [...],
  "model"}`. The browser reads the answers with the core's `judgeAnswers` (majority vote, claims
  checked); answers are untrusted text. Each error is `{"code", "message", ...fields}` (the codes
  and their fields: `cellguard.llm.client.ERROR_CODES`); a rejected request is answered 400 (413
  for a long prompt, 503 without an endpoint) with its error in `errors` and no answers.
  `endpoint`, `model`, `temperature` and `timeout_s` come from the browser's settings and override
  the server's configuration for this request; the API key is sent only to the server's own
  endpoint (same origin as `base_url`) or to `key_origins`, never to another endpoint a browser
  names, and another endpoint's error texts are not passed on (it may be an internal service).
- `GET /cellguard/llm/status` -> `{"configured", "model", "host", "votes", "structured",
  "deadline_s"}`: the base URL's host only, never the key; `deadline_s` bounds a check, retries
  included, so the browser knows how long to wait.

Both handlers need an authenticated user whom the server's Authorizer allows the action (`read`
for the status, `write` for a check) on the resource `cellguard_llm`.

Configuration: traitlets (e.g. `c.CellguardLLM.model = "..."` in `jupyter_server_config.py`); what
is left unset comes from the environment, as `cellguard.llm.client.config_from_env` reads it
(`CELLGUARD_LLM_BASE_URL`, `_MODEL`, `_API_KEY` or `OPENAI_API_KEY`, `_TEMPERATURE`, `_TIMEOUT_S`,
`_RETRIES`, `_DEADLINE_S`), and `CELLGUARD_LLM_VOTES`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

from jupyter_server.auth.decorator import authorized
from jupyter_server.base.handlers import APIHandler
from jupyter_server.utils import url_path_join
from tornado import web
from traitlets import Float, Int, List, Unicode, default
from traitlets.config import Configurable

from ..llm.client import (
    Client,
    InvalidSetting,
    LLMConfig,
    LLMError,
    config_from_env,
    finite_number,
    scrub_key,
)

MAX_PROMPT_CHARS = 400_000
MAX_VOTES = 9
# What the Authorizer is asked about.
AUTH_RESOURCE = "cellguard_llm"
# The domains of a check request's settings (the browser's settings schema says the same).
TEMPERATURE_RANGE = (-1.0, 2.0)
TIMEOUT_RANGE_S = (1.0, 600.0)
# Traits that, when set, replace the environment's value of the LLMConfig field of the same name.
CONFIG_TRAITS = (
    "base_url",
    "model",
    "api_key",
    "temperature",
    "timeout_s",
    "retries",
    "deadline_s",
)


class CellguardLLM(Configurable):
    base_url = Unicode(
        None, allow_none=True, help="OpenAI-compatible base URL, e.g. https://api.openai.com/v1"
    ).tag(config=True)
    model = Unicode(None, allow_none=True, help="Model name").tag(config=True)
    api_key = Unicode(
        None,
        allow_none=True,
        help="API key (default: $CELLGUARD_LLM_API_KEY or $OPENAI_API_KEY); never sent to the browser",
    ).tag(config=True)
    temperature = Float(
        None, allow_none=True, help="Sampling temperature; negative: the endpoint's default"
    ).tag(config=True)
    timeout_s = Float(None, allow_none=True, help="Timeout of one request, in seconds").tag(
        config=True
    )
    retries = Int(
        None, allow_none=True, help="Retries on 429/5xx/timeouts, with exponential backoff"
    ).tag(config=True)
    deadline_s = Float(
        None, allow_none=True, help="Most seconds a check may take, retries included"
    ).tag(config=True)
    votes = Int(help="Answers per check (majority vote)").tag(config=True)
    key_origins = List(
        Unicode(),
        help="Origins (scheme://host:port) besides base_url's that may receive the API key when a browser names them as endpoint",
    ).tag(config=True)

    @default("votes")
    def _votes(self):
        text = os.environ.get("CELLGUARD_LLM_VOTES", "1")
        try:
            votes = int(text)
        except ValueError:
            votes = 0
        if not 1 <= votes <= MAX_VOTES:
            raise InvalidSetting("votes", f"CELLGUARD_LLM_VOTES must be from 1 to {MAX_VOTES}")
        return votes

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        config = config_from_env()
        changes = {name: getattr(self, name) for name in CONFIG_TRAITS}
        changes = {name: value for name, value in changes.items() if value is not None}
        if changes.get("temperature", 0) < 0:
            changes["temperature"] = None
        # The server's configuration, validated once here (an error stops the extension loading).
        self.server_config: LLMConfig = dataclasses.replace(config, **changes)

    def client_config(self, overrides: dict | None = None) -> LLMConfig:
        """The configuration, with a check request's `endpoint`, `model`, `temperature` and
        `timeout_s` (already validated) in place of the server's."""
        overrides = overrides or {}
        base_url = overrides.get("endpoint") or self.server_config.base_url
        # A browser-named endpoint must not be a way to read the server's key, nor a service that
        # only the server reaches.
        trusted = self._may_receive_key(base_url)
        changes: dict = {
            "base_url": base_url,
            "model": overrides.get("model") or self.server_config.model,
            "api_key": self.server_config.api_key if trusted else None,
            "trusted": trusted,
        }
        if "temperature" in overrides:
            temperature = overrides["temperature"]
            changes["temperature"] = temperature if temperature >= 0 else None
        if "timeout_s" in overrides:
            changes["timeout_s"] = overrides["timeout_s"]
        return dataclasses.replace(self.server_config, **changes)

    def _may_receive_key(self, base_url: str) -> bool:
        return _origin(base_url) in {
            _origin(self.server_config.base_url),
            *(_origin(o) for o in self.key_origins),
        }


def _origin(url: str) -> str:
    parts = urlparse(url.strip())
    if not parts.scheme or not parts.hostname:
        return ""
    port = parts.port or {"http": 80, "https": 443}.get(parts.scheme)
    return f"{parts.scheme}://{parts.hostname.lower()}:{port}"


@dataclass
class CheckRequest:
    system: str
    user: str
    schema: dict | None
    votes: int
    overrides: dict


def _invalid(name: str, message: str) -> LLMError:
    return LLMError("invalid_request", message, field=name)


def parse_check(body: bytes, default_votes: int) -> CheckRequest:
    """The browser's check request, validated; an `LLMError` says what is wrong with it."""
    try:
        data = json.loads(body or b"{}")
    except ValueError:
        raise _invalid("body", "the request is not JSON") from None
    if not isinstance(data, dict):
        raise _invalid("body", "the request is not a JSON object")
    prompt = data.get("prompt")
    if not isinstance(prompt, dict):
        raise _invalid("prompt", "prompt must be an object {system, user, schema?}")
    system, user, schema = prompt.get("system"), prompt.get("user"), prompt.get("schema")
    if not isinstance(system, str) or not isinstance(user, str):
        raise _invalid("prompt", "prompt.system and prompt.user must be strings")
    if len(system) + len(user) > MAX_PROMPT_CHARS:
        raise LLMError("prompt_too_long", "the prompt is too long", limit=MAX_PROMPT_CHARS)
    if schema is not None and not isinstance(schema, dict):
        raise _invalid("prompt.schema", "prompt.schema must be an object")
    votes = data.get("votes")
    if votes is None:
        votes = default_votes
    elif isinstance(votes, bool) or not isinstance(votes, int) or votes < 1:
        raise _invalid("votes", "votes must be a whole number from 1")
    overrides: dict = {}
    endpoint = data.get("endpoint")
    if endpoint:
        if (
            not isinstance(endpoint, str)
            or urlparse(endpoint).scheme not in ("http", "https")
            or not _origin(endpoint)
        ):
            raise _invalid("endpoint", "endpoint must be an http(s) URL")
        overrides["endpoint"] = endpoint
    model = data.get("model")
    if model:
        if not isinstance(model, str):
            raise _invalid("model", "model must be a string")
        overrides["model"] = model
    for name, (low, high) in (("temperature", TEMPERATURE_RANGE), ("timeout_s", TIMEOUT_RANGE_S)):
        if data.get(name) is not None:
            try:
                overrides[name] = finite_number(name, data[name], low, high)
            except InvalidSetting as e:
                raise _invalid(name, str(e)) from None
    return CheckRequest(system, user, schema, min(votes, MAX_VOTES), overrides)


# The HTTP status of a reply that carries only this error.
_REQUEST_ERROR_STATUS = {"invalid_request": 400, "prompt_too_long": 413, "not_configured": 503}


class _Base(APIHandler):
    auth_resource = AUTH_RESOURCE

    @property
    def llm(self) -> CellguardLLM:
        return self.settings["cellguard_llm"]


class StatusHandler(_Base):
    @web.authenticated
    @authorized
    def get(self):
        config = self.llm.client_config()
        self.finish(
            json.dumps(
                {
                    "configured": config.configured,
                    "model": config.model,
                    "host": config.host,
                    "votes": self.llm.votes,
                    "structured": Client(config).structured_supported(),
                    "deadline_s": config.deadline_s,
                }
            )
        )


class CheckHandler(_Base):
    _asking = None  # the LLM requests in flight, while the browser waits

    def on_connection_close(self):
        # The browser cancelled the check (or went away): stop asking, retrying and voting; each
        # request's connection is closed as its call is cancelled (cellguard.llm.async_http).
        if self._asking is not None:
            self._asking.cancel()

    def _reply(self, answers: list, errors: list, model: str = "") -> None:
        # Belt and braces: the key never goes back, whatever the endpoint put in its texts.
        key = self.llm.server_config.api_key
        errors = [{**e, "message": scrub_key(e["message"], key)} for e in errors]
        answers = [scrub_key(a, key) for a in answers]
        self.finish(json.dumps({"answers": answers, "errors": errors, "model": model}))

    def _refuse(self, error: LLMError) -> None:
        self.set_status(_REQUEST_ERROR_STATUS[error.code])
        self._reply([], [error.to_json()])

    @web.authenticated
    @authorized
    async def post(self):
        try:
            check = parse_check(self.request.body, self.llm.votes)
        except LLMError as e:
            return self._refuse(e)
        config = self.llm.client_config(check.overrides)
        if not config.configured:
            return self._refuse(
                LLMError("not_configured", "no LLM endpoint configured on the server")
            )
        client = Client(config)
        messages = [
            {"role": "system", "content": check.system},
            {"role": "user", "content": check.user},
        ]
        self._asking = asyncio.gather(
            *(client.acomplete(messages, check.schema) for _ in range(check.votes)),
            return_exceptions=True,
        )
        try:
            results = await self._asking
        except asyncio.CancelledError:
            self.log.info("cellguard LLM check cancelled by the browser")
            return
        answers = [r for r in results if isinstance(r, str)]
        errors = []
        for r in results:
            if isinstance(r, LLMError):
                errors.append(r.to_json())
            elif isinstance(r, BaseException):
                self.log.warning("cellguard LLM check failed: %s", type(r).__name__)
                errors.append(LLMError("internal", f"internal error: {type(r).__name__}").to_json())
        self._reply(answers, errors, config.model)


def _load_jupyter_server_extension(serverapp):
    llm = CellguardLLM(parent=serverapp)
    serverapp.web_app.settings["cellguard_llm"] = llm
    base = serverapp.web_app.settings["base_url"]
    serverapp.web_app.add_handlers(
        ".*$",
        [
            (url_path_join(base, "cellguard/llm/check"), CheckHandler),
            (url_path_join(base, "cellguard/llm/status"), StatusHandler),
        ],
    )
    config = llm.client_config()
    serverapp.log.info(
        "cellguard: LLM checks %s",
        f"via {config.host} ({config.model})" if config.configured else "not configured",
    )


# Older servers look for this name.
load_jupyter_server_extension = _load_jupyter_server_extension


def _jupyter_server_extension_points():
    return [{"module": "cellguard.server"}]
