"""The `summarize` request: resolve each name, pick a summarizer by the object's type, keep to the
time budget, and isolate failures so that one odd object gives an `error` entry, not a failed request.
"""

from . import arrays, basic, estimators, frames, keras, torch
from .context import Budget, Context, DeadlineExceeded, Opaque
from .errors import raised
from .introspect import type_name
from .jsonsafe import clean
from .resolve import Undefined, Unresolvable, resolve

# Library modules first; `basic` always answers, so it comes last.
SUMMARIZER_MODULES = (frames, arrays, estimators, keras, torch, basic)
SCHEMA_VERSION = 1


def summarize_names(
    names,
    namespace: dict,
    *,
    max_columns: int,
    focus_columns,
    budget_ms: float,
    probe_datasets: bool = False,
) -> dict:
    """The summary document for `names` (plain names or dotted paths) in `namespace`."""
    ctx = Context(
        budget=Budget(budget_ms),
        max_columns=max_columns,
        focus_columns=tuple(focus_columns),
        probe_datasets=probe_datasets,
        summarize=summarize_object,
    )
    objects = {}
    partial = False
    for name in names:
        if ctx.budget.expired():
            partial = True
            break
        objects[name] = _summarize_path(name, namespace, ctx)
        partial = partial or ctx.truncated or objects[name].get("error") == "deadline"
    return {
        "schema": SCHEMA_VERSION,
        "partial": partial,
        "elapsed_ms": round(ctx.budget.elapsed_ms(), 2),
        "objects": objects,
    }


def _summarize_path(path: str, namespace: dict, ctx: Context) -> dict:
    try:
        obj = resolve(path, namespace)
    except Undefined:
        return {"error": "undefined"}
    except Unresolvable as exc:
        return exc.fields
    except Exception as exc:  # a library property that raised
        return raised(exc)
    return summarize_object(obj, ctx)


def summarize_object(obj, ctx: Context) -> dict:
    """One object's summary (JSON-clean), or `{"type", "error": ...}` when its summarizer raised
    or the deadline passed inside it."""
    ctx.truncated = False
    try:
        summarizer = next(
            found
            for found in (module.summarizer_for(obj) for module in SUMMARIZER_MODULES)
            if found
        )
        try:
            facts = summarizer(obj, ctx)
        except Opaque:
            facts = basic.summarize_object(obj, ctx)
        return clean(_arranged(obj, facts, ctx))
    except DeadlineExceeded:
        return {"type": type_name(obj), "error": "deadline"}
    except Exception as exc:
        return {"type": type_name(obj), **raised(exc)}


def _arranged(obj, facts: dict, ctx: Context) -> dict:
    summary = {"type": type_name(obj), "kind": facts.pop("kind")}
    for category in ("S", "R", "V"):
        # A fact that could not be read is left out: rules stay silent on a missing fact.
        present = {
            key: value for key, value in facts.pop(category, {}).items() if value is not None
        }
        if present:
            summary[category] = present
    summary.update(facts)
    if ctx.truncated:
        summary["partial"] = True  # the budget cut this object's detail short
    return summary
