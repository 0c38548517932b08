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

from jupyter_server.utils import url_path_join

from .config import MAX_VOTES, CellguardLLM
from .handlers import (
    AUTH_RESOURCE,
    MAX_PROMPT_CHARS,
    CheckHandler,
    CheckRequest,
    StatusHandler,
    parse_check,
)

__all__ = [
    "AUTH_RESOURCE",
    "MAX_PROMPT_CHARS",
    "MAX_VOTES",
    "CellguardLLM",
    "CheckHandler",
    "CheckRequest",
    "StatusHandler",
    "parse_check",
]


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
