"""Request dispatch. Every reply echoes the request's `type` and `id` and carries `ok: true` with the
result fields, or `ok: false` with an `error` sentence; no request can raise into the kernel.
"""

import platform
import sys

from . import signatures
from .introspect import library_version, type_name
from .jsonsafe import clean
from .resolve import Undefined, resolve
from .summarize import summarize_names

PROTOCOL_VERSION = 1
# Reported by `hello` when already imported (nothing is imported to ask).
KNOWN_LIBRARIES = (
    "numpy",
    "pandas",
    "sklearn",
    "scipy",
    "torch",
    "torchvision",
    "tensorflow",
    "keras",
    "tf_keras",
    "xgboost",
    "lightgbm",
    "catboost",
    "matplotlib",
    "seaborn",
    "statsmodels",
    "transformers",
    "polars",
    "PIL",
    "cv2",
)


def handle(agent, request) -> dict:
    if not isinstance(request, dict):
        return {"type": None, "id": None, "ok": False, "error": "a request must be a JSON object"}
    kind, request_id = request.get("type"), request.get("id")
    handler = HANDLERS.get(kind)
    if handler is None:
        return {
            "type": kind,
            "id": request_id,
            "ok": False,
            "error": f"unknown request type {kind!r}; expected one of {sorted(HANDLERS)}",
        }
    try:
        result = handler(agent, request)
        return clean({"type": kind, "id": request_id, "ok": True, **result})
    except Exception as exc:
        return {
            "type": kind,
            "id": request_id,
            "ok": False,
            "error": f"{type(exc).__name__}: {exc}",
        }


def _hello(agent, request) -> dict:
    libraries = {name: library_version(name) for name in KNOWN_LIBRARIES if name in sys.modules}
    return {
        "protocol": PROTOCOL_VERSION,
        "python": platform.python_version(),
        "libraries": libraries,
        "agent": agent.mode,
    }


def _names(agent, request) -> dict:
    names = agent.public_names()
    return {"names": names, "types": {name: type_name(agent.user_ns[name]) for name in names}}


def _summarize(agent, request) -> dict:
    options = {**agent.settings, **(request.get("options") or {})}
    summary = summarize_names(
        _string_list(request.get("names")),
        agent.user_ns,
        max_columns=int(options["max_columns"]),
        focus_columns=_string_list(options.get("focus_columns")),
        budget_ms=float(options["budget_ms"]),
    )
    return {"summary": summary}


def _signature(agent, request) -> dict:
    described = {}
    for path in _string_list(request.get("names")):
        try:
            described[path] = signatures.describe(resolve(path, agent.user_ns))
        except Undefined:
            described[path] = {"error": "undefined"}
        except Exception as exc:
            described[path] = {"error": f"{type(exc).__name__}: {exc}"}
    return {"signatures": described}


def _history(agent, request) -> dict:
    return {"cells": agent.history.cells()}


def _string_list(value) -> list:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError("expected a list of strings")
    return value


HANDLERS = {
    "hello": _hello,
    "names": _names,
    "summarize": _summarize,
    "signature": _signature,
    "history": _history,
}
