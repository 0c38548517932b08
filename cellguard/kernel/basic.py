"""Python's own values: classes, modules, scalars, strings, containers, iterators, callables, and
the fallback for any other object.

Container subclasses are read through the builtin base methods (`list.__len__(obj)`), so a user's
override of `__len__` or `__iter__` never runs; iterators and generators are never advanced.
"""

import inspect
import math
import types
from itertools import islice

from . import signatures
from .array_kinds import shape_of
from .introspect import (
    class_lookup,
    class_module,
    class_name,
    class_qualname,
    instance_dict,
    is_module,
    is_subclass,
    is_trusted_type,
    library_attr,
    library_version,
    module_name,
    qualified_name,
)
from .jsonsafe import EXACT_INT_LIMIT, cut, short_repr

ELEMENT_SCAN = 1_000  # elements inspected for element types; longer containers are sampled
DICT_KEYS = 20
# Lists and tuples this short send their elements when each is plain (`_plain_items`).
PLAIN_ITEMS = 20
KEY_TEXT = 60  # keys and plain str elements are cut to this many characters
ATTRIBUTES = 30
_CONTAINER_KINDS = (
    (dict, "dict"),
    (list, "list"),
    (tuple, "tuple"),
    (set, "set"),
    (frozenset, "set"),
)
# The base types' own conversions, so that a subclass's `__int__` or `__repr__` never runs.
_SCALAR_KINDS = (
    (bool, "bool", bool),
    (int, "int", int.__int__),
    (float, "float", float.__float__),
    (complex, "complex", complex.__repr__),
)


def summarizer_for(obj):
    """The summarizer for `obj`; this module is the dispatcher's last resort, so never None."""
    cls = type(obj)
    if is_subclass(cls, type):
        return summarize_class
    if is_module(obj):
        return summarize_module
    if obj is None or issubclass(cls, (bool, int, float, complex, str, bytes)):
        return summarize_scalar
    if any(issubclass(cls, base) for base, _ in _CONTAINER_KINDS):
        return summarize_container
    if signatures.is_callable_value(obj):
        return summarize_callable
    if cls is types.GeneratorType or class_lookup(cls, "__next__", None) is not None:
        return summarize_iterator
    return summarize_object


def summarize_class(cls, ctx) -> dict:
    described = signatures.describe(cls)  # the constructor's
    return {
        "kind": "class",
        "R": {
            "class": class_qualname(cls),
            "module": class_module(cls),
            "signature": described["signature"],
            "parameters": described["parameters"],
            "wrapped": described.get("wrapped"),
        },
    }


def summarize_module(module, ctx) -> dict:
    return {
        "kind": "module",
        "R": {"module": module_name(module), "version": library_version(module_name(module))},
    }


def summarize_scalar(value, ctx) -> dict:
    cls = type(value)
    if value is None:
        return {"kind": "none", "V": {"value": None}}
    if issubclass(cls, (str, bytes)):
        base = str if issubclass(cls, str) else bytes
        text = base.__getitem__(value, slice(0, 200))
        return {
            "kind": "str",
            "S": {"length": base.__len__(value)},
            "V": {"value": cut(text if base is str else repr(text), 80)},
        }
    kind, plain = next(
        (name, convert) for base, name, convert in _SCALAR_KINDS if issubclass(cls, base)
    )
    value = plain(value)
    if kind == "float" and not math.isfinite(value):
        value = repr(value)  # "nan", "inf": JSON has neither
    return {"kind": kind, "V": {"value": value}}


def summarize_container(obj, ctx) -> dict:
    base, kind = next((b, k) for b, k in _CONTAINER_KINDS if issubclass(type(obj), b))
    length = base.__len__(obj)
    elements = base.values(obj) if base is dict else base.__iter__(obj)
    types_seen = {}
    for element in islice(elements, ELEMENT_SCAN):
        name = class_name(type(element))
        types_seen[name] = types_seen.get(name, 0) + 1
    facts = {
        "kind": kind,
        "S": {"length": length},
        "R": {"element_types": types_seen},
        "V": {"preview": short_repr(obj, 120)},
    }
    if base is list or base is tuple:
        items = _plain_items(base, obj, length)
        if items is not None:
            facts["V"]["items"] = items
    if base is dict:
        keys = list(islice(dict.keys(obj), DICT_KEYS))
        facts["R"]["keys"] = [
            short_repr(key, KEY_TEXT) if type(key) is not str else cut(key, KEY_TEXT)
            for key in keys
        ]
        # `keys` is the whole key set, written out uncut: a key it lacks is certainly missing.
        if length <= DICT_KEYS and all(_plain_text(key) for key in keys):
            facts["R"]["keys_complete"] = True
        # A dict of arrays or tensors (a model's named inputs): their shapes.
        shapes = {}
        for key, value in islice(dict.items(obj), DICT_KEYS):
            shape = shape_of(value) if type(key) is str else None
            if shape is not None:
                shapes[cut(key, 60)] = shape
        if shapes:
            facts["S"]["value_shapes"] = shapes
    if length > ELEMENT_SCAN:
        facts["sampled"] = True
    return facts


def _plain_text(value) -> bool:
    return type(value) is str and len(value) <= KEY_TEXT


def _plain_items(base, obj, length: int):
    """The elements of a short list or tuple when each is exactly a str (shown uncut), an int a
    JSON number holds exactly, or None: then they are known in full; else None."""
    if length > PLAIN_ITEMS:
        return None
    items = list(base.__iter__(obj))
    plain = all(
        item is None
        or _plain_text(item)
        or (type(item) is int and -EXACT_INT_LIMIT <= item <= EXACT_INT_LIMIT)
        for item in items
    )
    return items if plain else None


def summarize_callable(obj, ctx) -> dict:
    described = signatures.describe(obj)
    return {
        "kind": "callable",
        "R": {
            "signature": described["signature"],
            "parameters": described["parameters"],
            "wrapped": described.get("wrapped"),
            "callable_kind": described["kind"],
            "library": described["library"],
        },
    }


def summarize_iterator(obj, ctx) -> dict:
    facts = {"kind": "iterator", "R": {"class": qualified_name(type(obj))}}
    if type(obj) is types.GeneratorType:
        # Read from the frame, the generator is not advanced.
        facts["V"] = {"state": inspect.getgeneratorstate(obj)}
    return facts


def summarize_object(obj, ctx) -> dict:
    """Any other object: its class and instance attribute names, plus shape/dtype for library
    objects that have them (a scipy sparse matrix, a polars frame)."""
    cls = type(obj)
    facts = {"kind": "object", "R": {"class": qualified_name(cls)}}
    public = (name for name in instance_dict(obj) if type(name) is str and name[:1] != "_")
    attributes = list(islice(public, ATTRIBUTES))
    if attributes:
        facts["R"]["attributes"] = attributes
    if is_trusted_type(cls):
        shape = library_attr(obj, "shape")
        if type(shape) is tuple and all(type(n) is int for n in shape):
            facts["S"] = {"shape": list(shape)}
        dtype = library_attr(obj, "dtype")
        if dtype is not None:
            facts["R"]["dtype"] = str(dtype)
    return facts
