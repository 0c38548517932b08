"""JSON-safe values and short representations that run no user code.

`clean` is applied to every object's summary and to every reply: numpy scalars become Python
numbers, tuples and sets become lists, floats keep 6 significant digits, NaN becomes null and
infinities the strings "inf" / "-inf" (JSON has neither), integers beyond ±2**53 become strings (a
JSON reader's doubles would round them; Python's JSON writer refuses those over 4300 digits).
`short_repr` calls `repr` only on builtin scalars and on a few small value types of trusted
libraries (dates, paths, dtypes, enums); anything else shows as `<Class>`, so that a user's slow or
failing `__repr__`, or a library container's full repr, never runs.
"""

import enum
import math
from collections import deque
from itertools import islice

from .introspect import class_mro, class_name, is_subclass, is_trusted_type, library_class

ELLIPSIS = "…"
PREVIEW_ITEMS = 5
EXACT_INT_LIMIT = 2**53
INT_DIGITS_SHOWN = 40
_CLEAN_DEPTH = 20
_SCALARS = (bool, int, float, complex, str, bytes, type(None))
_CONTAINERS = {
    list: ("[", "]"),
    tuple: ("(", ")"),
    set: ("{", "}"),
    frozenset: ("frozenset({", "})"),
    dict: ("{", "}"),
    deque: ("deque([", "])"),
}
# Value types of trusted libraries whose repr is short and computed from the value alone.
_SMALL_REPR_CLASSES = frozenset(
    {
        "date", "datetime", "time", "timedelta", "timezone", "Decimal", "range", "slice",
        "PurePath", "Timestamp", "Timedelta", "Period", "NaTType", "NAType", "Interval",
        "dtype", "device",
    }
)  # fmt: skip


def cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + ELLIPSIS


def clean_float(value: float):
    if math.isnan(value):
        return None
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return float(f"{value:.6g}")


def int_value(value: int):
    """An exact int as a JSON number when a double holds it exactly, else as a string (cut)."""
    if -EXACT_INT_LIMIT <= value <= EXACT_INT_LIMIT:
        return value
    if value.bit_length() > 4 * INT_DIGITS_SHOWN:
        # str() of a huge int costs quadratic time (and raises beyond 4300 digits): the magnitude.
        exponent = math.floor(math.log10(abs(value)))
        return f"~{'-' if value < 0 else ''}1e{exponent}"
    return str(value)


def whole_number(value):
    """An int, or a numpy integer as an int; None for anything else (a user's `__int__` never
    runs)."""
    if type(value) is int:
        return value
    integer = library_class("numpy", "integer")
    is_numpy_integer = integer is not None and is_subclass(type(value), integer)
    return int(value) if is_numpy_integer and is_trusted_type(type(value)) else None


def clean(value, depth: int = 0):
    # issubclass(type(...)) rather than isinstance: the latter may read a user's `__class__`.
    cls = type(value)
    if value is None or cls is bool or cls is str:
        return value
    if issubclass(cls, str):
        return str.__str__(value)
    if issubclass(cls, int):
        return int_value(int.__int__(value))
    if issubclass(cls, float):
        return clean_float(float.__float__(value))
    if depth < _CLEAN_DEPTH and issubclass(cls, dict):
        return {
            key if type(key) is str else short_repr(key, 80): clean(item, depth + 1)
            for key, item in dict.items(value)
        }
    base = next((b for b in (list, tuple, set, frozenset) if issubclass(cls, b)), None)
    if depth < _CLEAN_DEPTH and base is not None:
        return [clean(item, depth + 1) for item in base.__iter__(value)]
    if _is_numpy_scalar(value):
        return clean(_numpy_item(value), depth)
    return short_repr(value, 80)


def short_repr(value, limit: int = 40) -> str:
    return cut(_repr(value, depth=0), limit)


def _repr(value, depth: int) -> str:
    cls = type(value)
    if _is_numpy_scalar(value):
        value = _numpy_item(value)  # np.float64(3.0) reads better as 3.0
        cls = type(value)
    if cls is int:
        return str(int_value(value))
    if cls in _SCALARS:
        # Strings are cut before repr so that a 1 GB string costs nothing.
        return repr(cut(value, 60)) if cls is str else repr(value[:60] if cls is bytes else value)
    base = next((b for b in _CONTAINERS if issubclass(cls, b)), None)
    if base is not None and depth < 2:
        # Read through the base type: a subclass's `__iter__` or `__len__` never runs.
        length = base.__len__(value)
        more = ", …" if length > PREVIEW_ITEMS else ""
        opening, closing = _CONTAINERS[base]
        if base is dict:
            items = [
                f"{_repr(k, depth + 1)}: {_repr(v, depth + 1)}"
                for k, v in islice(dict.items(value), PREVIEW_ITEMS)
            ]
        else:
            items = [_repr(item, depth + 1) for item in islice(base.__iter__(value), PREVIEW_ITEMS)]
        trailing = "," if base is tuple and length == 1 else ""
        return opening + ", ".join(items) + trailing + more + closing
    if _has_small_repr(cls):
        try:
            return cut(repr(value), 200)
        except Exception:
            pass
    return f"<{class_name(cls)}>"


def _has_small_repr(cls) -> bool:
    if not is_trusted_type(cls):
        return False
    return is_subclass(cls, enum.Enum) or any(
        class_name(klass) in _SMALL_REPR_CLASSES for klass in class_mro(cls)
    )


def _is_numpy_scalar(value) -> bool:
    generic = library_class("numpy", "generic")
    return generic is not None and is_subclass(type(value), generic)


def _numpy_item(value):
    """The Python value of a numpy scalar, through numpy's own method (not a subclass's)."""
    return library_class("numpy", "generic").item(value)
