"""The server's LLM configuration (`c.CellguardLLM...`), read once when the extension loads."""

from __future__ import annotations

import dataclasses
import os
from typing import Any
from urllib.parse import urlparse

from traitlets import Float, Int, List, Unicode, default
from traitlets.config import Configurable

from ..llm.client import InvalidSetting, LLMConfig, config_from_env

MAX_VOTES = 9
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
        return origin_of(base_url) in {
            origin_of(self.server_config.base_url),
            *(origin_of(o) for o in self.key_origins),
        }


def origin_of(url: str) -> str:
    """`scheme://host:port` of a URL ('' when it has none): who may receive the API key."""
    parts = urlparse(url.strip())
    if not parts.scheme or not parts.hostname:
        return ""
    port = parts.port or {"http": 80, "https": 443}.get(parts.scheme)
    return f"{parts.scheme}://{parts.hostname.lower()}:{port}"
