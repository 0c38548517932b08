"""Request dispatch. Every request gets exactly one reply, which echoes its `type` and `id` and
carries `ok: true` with the result fields, or `ok: false` with an error code in `error` and the
code's fields (docs/summary-schema.md); nothing a request does can raise into the kernel, an
interrupt (KeyboardInterrupt) during a request included.
"""

import platform
import sys

from . import signatures
from .errors import raised
from .introspect import library_version, type_name
from .jsonsafe import clean
from .resolve import Undefined, Unresolvable, resolve
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


MAX_BUDGET_MS = 10_000


class BadRequest(ValueError):
    """A request field of the wrong type or range."""

    def __init__(self, field: str, expected: str):
        super().__init__(field)
        self.fields = {"error": "bad_request", "field": field, "expected": expected}


def handle(agent, request) -> dict:
    if type(request) is not dict:
        return failure(None, {"error": "bad_request", "field": "", "expected": "object"})
    kind, request_id = request.get("type"), request.get("id")
    echo = {
        "type": kind if type(kind) is str else None,
        "id": request_id if type(request_id) is str else None,
    }
    handler = HANDLERS.get(kind) if type(kind) is str else None
    if handler is None:
        return failure(echo, {"error": "unknown_type", "expected": sorted(HANDLERS)})
    try:
        return clean({**echo, "ok": True, **handler(agent, request)})
    except BadRequest as exc:
        return failure(echo, exc.fields)
    except KeyboardInterrupt:
        # The user interrupted the kernel while it answered us: the answer is dropped, the
        # kernel goes on.
        return failure(echo, {"error": "interrupted"})
    except Exception as exc:
        return failure(echo, raised(exc))


def failure(echo, fields: dict) -> dict:
    return {**(echo or {"type": None, "id": None}), "ok": False, **fields}


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
    options = request.get("options")
    if options is not None and type(options) is not dict:
        raise BadRequest("options", "object")
    options = {**agent.settings, **(options or {})}
    budget_ms = options["budget_ms"]
    if type(budget_ms) not in (int, float) or not 0 <= budget_ms <= MAX_BUDGET_MS:
        raise BadRequest("options.budget_ms", f"a number from 0 to {MAX_BUDGET_MS}")
    max_columns = options["max_columns"]
    if type(max_columns) is not int or max_columns < 0:
        raise BadRequest("options.max_columns", "a whole number >= 0")
    probe_datasets = options.get("probe_datasets", False)
    if type(probe_datasets) is not bool:
        raise BadRequest("options.probe_datasets", "true or false")
    summary = summarize_names(
        _string_list(request.get("names"), "names"),
        agent.user_ns,
        max_columns=max_columns,
        focus_columns=_string_list(options.get("focus_columns"), "options.focus_columns"),
        budget_ms=float(budget_ms),
        probe_datasets=probe_datasets,
    )
    return {"summary": summary}


def _signature(agent, request) -> dict:
    described = {}
    for path in _string_list(request.get("names"), "names"):
        try:
            described[path] = signatures.describe(resolve(path, agent.user_ns))
        except Undefined:
            described[path] = {"error": "undefined"}
        except Unresolvable as exc:
            described[path] = exc.fields
        except Exception as exc:
            described[path] = raised(exc)
    return {"signatures": described}


def _history(agent, request) -> dict:
    return {"cells": agent.history.cells()}


def _string_list(value, field: str) -> list:
    if value is None:
        return []
    if type(value) is not list or not all(type(item) is str for item in value):
        raise BadRequest(field, "a list of strings")
    return value


HANDLERS = {
    "hello": _hello,
    "names": _names,
    "summarize": _summarize,
    "signature": _signature,
    "history": _history,
}
