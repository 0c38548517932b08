"""Jupyter server extension: the LLM check of the browser goes through the server, so the API key
never reaches the browser.

- `POST /cellguard/llm/check` `{"prompt": {"system", "user", "schema"?}, "votes"?, "endpoint"?,
  "model"?, "temperature"?, "timeout_s"?}` -> `{"answers": [raw answer texts], "errors": [...],
  "model"}`. The browser reads the answers with the core's `judgeAnswers` (majority vote, claims
  checked); answers are untrusted text. `endpoint`, `model`, `temperature` and `timeout_s` come from
  the browser's settings and override the server's configuration for this request; the API key is
  sent only to the server's own endpoint (same origin as `base_url`) or to `key_origins`, never to
  another endpoint a browser names.
- `GET /cellguard/llm/status` -> `{"configured", "model", "host", "votes", "structured"}`: the base
  URL's host only, never the key.

Configuration (traitlets, e.g. `c.CellguardLLM.model = "..."` in `jupyter_server_config.py`), with
the environment as defaults: `CELLGUARD_LLM_BASE_URL`, `CELLGUARD_LLM_MODEL`,
`CELLGUARD_LLM_API_KEY` (or `OPENAI_API_KEY`), `CELLGUARD_LLM_TEMPERATURE`, `CELLGUARD_LLM_VOTES`,
`CELLGUARD_LLM_TIMEOUT_S`.
"""

from __future__ import annotations

import asyncio
import json
import os
from urllib.parse import urlparse

from jupyter_server.base.handlers import APIHandler
from jupyter_server.utils import url_path_join
from tornado import web
from traitlets import Float, Int, List, Unicode, default
from traitlets.config import Configurable

from ..llm.client import Client, LLMConfig, LLMError

MAX_PROMPT_CHARS = 400_000
MAX_VOTES = 9


class CellguardLLM(Configurable):
    base_url = Unicode(help="OpenAI-compatible base URL, e.g. https://api.openai.com/v1").tag(
        config=True
    )
    model = Unicode(help="Model name").tag(config=True)
    api_key = Unicode(
        help="API key (default: $CELLGUARD_LLM_API_KEY or $OPENAI_API_KEY); never sent to the browser"
    ).tag(config=True)
    temperature = Float(-1.0, help="Sampling temperature; negative: the endpoint's default").tag(
        config=True
    )
    votes = Int(help="Answers per check (majority vote)").tag(config=True)
    timeout_s = Float(help="Timeout of one request, in seconds").tag(config=True)
    retries = Int(3, help="Retries on 429/5xx/timeouts, with exponential backoff").tag(config=True)
    key_origins = List(
        Unicode(),
        help="Origins (scheme://host:port) besides base_url's that may receive the API key when a browser names them as endpoint",
    ).tag(config=True)

    @default("base_url")
    def _base_url(self):
        return os.environ.get("CELLGUARD_LLM_BASE_URL", "")

    @default("model")
    def _model(self):
        return os.environ.get("CELLGUARD_LLM_MODEL", "")

    @default("api_key")
    def _api_key(self):
        return os.environ.get("CELLGUARD_LLM_API_KEY") or os.environ.get("OPENAI_API_KEY") or ""

    @default("temperature")
    def _temperature(self):
        return float(os.environ.get("CELLGUARD_LLM_TEMPERATURE", "-1"))

    @default("votes")
    def _votes(self):
        return int(os.environ.get("CELLGUARD_LLM_VOTES", "1"))

    @default("timeout_s")
    def _timeout(self):
        return float(os.environ.get("CELLGUARD_LLM_TIMEOUT_S", "60"))

    def client_config(self, overrides: dict | None = None) -> LLMConfig:
        """The configuration, with a check request's `endpoint`, `model`, `temperature` and
        `timeout_s` (already validated) in place of the server's."""
        overrides = overrides or {}
        base_url = overrides.get("endpoint") or self.base_url
        temperature = overrides.get("temperature", self.temperature)
        key = self.api_key if self._may_receive_key(base_url) else ""
        return LLMConfig(
            base_url=base_url,
            model=overrides.get("model") or self.model,
            api_key=key or None,
            temperature=temperature if temperature is not None and temperature >= 0 else None,
            timeout_s=overrides.get("timeout_s") or self.timeout_s,
            retries=self.retries,
        )

    def _may_receive_key(self, base_url: str) -> bool:
        # A browser-named endpoint must not be a way to read the server's key.
        return _origin(base_url) in {
            _origin(self.base_url),
            *(_origin(o) for o in self.key_origins),
        }


def _origin(url: str) -> str:
    parts = urlparse(url.strip())
    if not parts.scheme or not parts.hostname:
        return ""
    port = parts.port or {"http": 80, "https": 443}.get(parts.scheme)
    return f"{parts.scheme}://{parts.hostname.lower()}:{port}"


def _overrides(body: dict) -> dict:
    """The browser's settings for one check request, validated."""
    out: dict = {}
    endpoint = body.get("endpoint")
    if endpoint:
        if (
            not isinstance(endpoint, str)
            or urlparse(endpoint).scheme not in ("http", "https")
            or not _origin(endpoint)
        ):
            raise ValueError("endpoint must be an http(s) URL")
        out["endpoint"] = endpoint
    model = body.get("model")
    if model:
        if not isinstance(model, str):
            raise ValueError("model must be a string")
        out["model"] = model
    for name, low, high in (("temperature", -1.0, 2.0), ("timeout_s", 1.0, 600.0)):
        value = body.get(name)
        if value is not None:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"{name} must be a number")
            out[name] = float(min(max(value, low), high))
    return out


class _Base(APIHandler):
    @property
    def llm(self) -> CellguardLLM:
        return self.settings["cellguard_llm"]


class StatusHandler(_Base):
    @web.authenticated
    def get(self):
        config = self.llm.client_config()
        client = Client(config)
        self.finish(
            json.dumps(
                {
                    "configured": config.configured,
                    "model": config.model,
                    "host": config.host,
                    "votes": self.llm.votes,
                    "structured": client.structured_supported(),
                }
            )
        )


class CheckHandler(_Base):
    _asking = None  # the LLM requests in flight, while the browser waits

    def on_connection_close(self):
        # The browser cancelled the check (or went away): stop asking, retrying and voting.
        if self._asking is not None:
            self._asking.cancel()

    @web.authenticated
    async def post(self):
        try:
            body = json.loads(self.request.body or b"{}")
            prompt = body["prompt"]
            system, user = prompt["system"], prompt["user"]
            if not isinstance(system, str) or not isinstance(user, str):
                raise TypeError("system and user must be strings")
            overrides = _overrides(body)
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            raise web.HTTPError(
                400, f"expected {{prompt: {{system, user}}, votes?, endpoint?, model?}}: {e}"
            ) from e
        if len(system) + len(user) > MAX_PROMPT_CHARS:
            raise web.HTTPError(413, "prompt too long")
        votes = body.get("votes") or self.llm.votes
        try:
            votes = max(1, min(int(votes), MAX_VOTES))
        except (TypeError, ValueError) as e:
            raise web.HTTPError(400, "votes must be a number") from e
        schema = prompt.get("schema") if isinstance(prompt.get("schema"), dict) else None
        config = self.llm.client_config(overrides)
        if not config.configured:
            self.set_status(503)
            self.finish(
                json.dumps({"answers": [], "errors": ["no LLM endpoint configured on the server"]})
            )
            return
        client = Client(config)
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        self._asking = asyncio.gather(
            *(client.acomplete(messages, schema) for _ in range(votes)), return_exceptions=True
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
                errors.append(str(r))
            elif isinstance(r, BaseException):
                self.log.warning("cellguard LLM check failed: %s", type(r).__name__)
                errors.append(f"internal error: {type(r).__name__}")
        key = self.llm.api_key
        if key:  # belt and braces: the key never goes back
            answers = [a.replace(key, "***") for a in answers]
            errors = [e.replace(key, "***") for e in errors]
        self.finish(json.dumps({"answers": answers, "errors": errors, "model": config.model}))


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
    serverapp.log.info(
        "cellguard: LLM checks %s",
        f"via {llm.client_config().host} ({llm.model})" if llm.model else "not configured",
    )


# Older servers look for this name.
load_jupyter_server_extension = _load_jupyter_server_extension


def _jupyter_server_extension_points():
    return [{"module": "cellguard.server"}]
