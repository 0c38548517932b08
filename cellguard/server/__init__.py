"""Jupyter server extension: the LLM check of the browser goes through the server, so the API key
never reaches the browser.

- `POST /cellguard/llm/check` `{"prompt": {"system", "user", "schema"?}, "votes"?}` ->
  `{"answers": [raw answer texts], "errors": [...], "model"}`. The browser reads the answers with the
  core's `readVerdict` (majority vote) and checks the claims; answers are untrusted text.
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

from jupyter_server.base.handlers import APIHandler
from jupyter_server.utils import url_path_join
from tornado import web
from traitlets import Float, Int, Unicode, default
from traitlets.config import Configurable

from ..llm.client import Client, LLMConfig, LLMError

MAX_PROMPT_CHARS = 400_000
MAX_VOTES = 9


class CellguardLLM(Configurable):
    base_url = Unicode(help="OpenAI-compatible base URL, e.g. https://api.openai.com/v1").tag(config=True)
    model = Unicode(help="Model name").tag(config=True)
    api_key = Unicode(help="API key (default: $CELLGUARD_LLM_API_KEY or $OPENAI_API_KEY); never sent to the browser").tag(
        config=True
    )
    temperature = Float(-1.0, help="Sampling temperature; negative: the endpoint's default").tag(config=True)
    votes = Int(help="Answers per check (majority vote)").tag(config=True)
    timeout_s = Float(help="Timeout of one request, in seconds").tag(config=True)
    retries = Int(3, help="Retries on 429/5xx/timeouts, with exponential backoff").tag(config=True)

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
        return float(os.environ.get("CELLGUARD_LLM_TEMPERATURE", -1.0))

    @default("votes")
    def _votes(self):
        return int(os.environ.get("CELLGUARD_LLM_VOTES", 1))

    @default("timeout_s")
    def _timeout(self):
        return float(os.environ.get("CELLGUARD_LLM_TIMEOUT_S", 60))

    def client_config(self) -> LLMConfig:
        return LLMConfig(
            base_url=self.base_url,
            model=self.model,
            api_key=self.api_key or None,
            temperature=self.temperature if self.temperature >= 0 else None,
            timeout_s=self.timeout_s,
            retries=self.retries,
        )


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
    @web.authenticated
    async def post(self):
        try:
            body = json.loads(self.request.body or b"{}")
            prompt = body["prompt"]
            system, user = prompt["system"], prompt["user"]
            if not isinstance(system, str) or not isinstance(user, str):
                raise TypeError("system and user must be strings")
        except (ValueError, KeyError, TypeError) as e:
            raise web.HTTPError(400, f"expected {{prompt: {{system, user}}, votes?}}: {e}")
        if len(system) + len(user) > MAX_PROMPT_CHARS:
            raise web.HTTPError(413, "prompt too long")
        votes = body.get("votes") or self.llm.votes
        try:
            votes = max(1, min(int(votes), MAX_VOTES))
        except (TypeError, ValueError):
            raise web.HTTPError(400, "votes must be a number")
        schema = prompt.get("schema") if isinstance(prompt.get("schema"), dict) else None
        config = self.llm.client_config()
        if not config.configured:
            self.set_status(503)
            self.finish(json.dumps({"answers": [], "errors": ["no LLM endpoint configured on the server"]}))
            return
        client = Client(config)
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        results = await asyncio.gather(
            *(client.acomplete(messages, schema) for _ in range(votes)), return_exceptions=True
        )
        answers = [r for r in results if isinstance(r, str)]
        errors = []
        for r in results:
            if isinstance(r, LLMError):
                errors.append(str(r))
            elif isinstance(r, BaseException):
                self.log.warning("cellguard LLM check failed: %s", type(r).__name__)
                errors.append(f"internal error: {type(r).__name__}")
        key = config.api_key
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
        "cellguard: LLM checks %s", f"via {llm.client_config().host} ({llm.model})" if llm.model else "not configured"
    )


# Older servers look for this name.
load_jupyter_server_extension = _load_jupyter_server_extension


def _jupyter_server_extension_points():
    return [{"module": "cellguard.server"}]
