"""JSON-safe values and short representations that run no user code.

`clean` is applied once to every reply: numpy scalars become Python numbers, tuples and sets become
lists, floats keep 6 significant digits, NaN becomes null and infinities the strings "inf" / "-inf"
(JSON has neither). `short_repr` calls `repr` only on builtin scalars and on objects of trusted
libraries; anything else shows as `<Class>` so that a user's slow or failing `__repr__` never runs.
"""

import math
import sys
from itertools import islice

from .introspect import is_trusted_type

ELLIPSIS = "…"
PREVIEW_ITEMS = 5
_SCALARS = (bool, int, float, complex, str, bytes, type(None))
_CONTAINERS = {
    list: ("[", "]"),
    tuple: ("(", ")"),
    set: ("{", "}"),
    frozenset: ("frozenset({", "})"),
    dict: ("{", "}"),
}


def cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + ELLIPSIS


def clean_float(value: float):
    if math.isnan(value):
        return None
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return float(f"{value:.6g}")


def clean(value):
    # issubclass(type(...)) rather than isinstance: the latter may read a user's `__class__`.
    cls = type(value)
    if value is None or issubclass(cls, (bool, str)):
        return value
    if issubclass(cls, int):
        return int(value)
    if issubclass(cls, float):
        return clean_float(value)
    if issubclass(cls, dict):
        return {str(key): clean(item) for key, item in dict.items(value)}
    if issubclass(cls, (list, tuple, set, frozenset)):
        return [clean(item) for item in value]
    if _is_numpy_scalar(value):
        return clean(value.item())
    return short_repr(value, 80)


def short_repr(value, limit: int = 40) -> str:
    return cut(_repr(value, depth=0), limit)


def _repr(value, depth: int) -> str:
    cls = type(value)
    if _is_numpy_scalar(value):
        value = value.item()  # np.float64(3.0) reads better as 3.0
        cls = type(value)
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
    if is_trusted_type(cls) and not _is_bulk_data(value):
        try:
            return repr(value)
        except Exception:
            pass
    return f"<{cls.__name__}>"


def _is_numpy_scalar(value) -> bool:
    numpy = sys.modules.get("numpy")
    return numpy is not None and issubclass(type(value), numpy.generic)


def _is_bulk_data(value) -> bool:
    """Arrays and frames have their own summaries; their reprs are long and cost formatting time."""
    return hasattr(type(value), "shape") and hasattr(type(value), "dtype")
