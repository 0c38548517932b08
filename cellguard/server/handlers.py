"""The HTTP handlers of the extension (documented in `cellguard.server`) and the check request
they read."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from urllib.parse import urlparse

from jupyter_server.auth.decorator import authorized
from jupyter_server.base.handlers import APIHandler
from tornado import web

from ..llm.client import Client, InvalidSetting, LLMError, finite_number, scrub_key
from .config import MAX_VOTES, CellguardLLM, origin_of

MAX_PROMPT_CHARS = 400_000
# What the Authorizer is asked about.
AUTH_RESOURCE = "cellguard_llm"
# The domains of a check request's settings (the browser's settings schema says the same).
TEMPERATURE_RANGE = (-1.0, 2.0)
TIMEOUT_RANGE_S = (1.0, 600.0)


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
            or not origin_of(endpoint)
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
