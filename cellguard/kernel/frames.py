"""pandas DataFrame, Series and Index.

Value facts (NaN presence, unique counts, ranges, examples) of big data are computed on every k-th
row, a strided `iloc` view of at most SAMPLE_CELLS cells, and flagged `sampled`: a NaN that only
occurs between sampled rows is then missed, which is why the flag exists. Strings, categories and
objects are counted on at most LABEL_SAMPLE values. Structure and representation facts (shape,
column names and dtypes) are exact; a very wide frame has only its first MAX_COLUMN_NAMES columns
(plus the mentioned ones) looked at. Columns get value detail in relevance order (`focus_columns`,
the ones the cell mentions, first) up to `max_columns`, and the loop stops when the budget runs out.

No user code runs: a subclass of DataFrame or Series is read through a plain pandas object over the
same data (its block manager), so its overrides (`_constructor`, properties) never run; a frame
holding a user's extension array or Index subclass, or a user Index subclass, is summarized as a
plain object. Python objects in object columns and labels are hashed, compared or turned into text
only when every one of their types is a builtin or library scalar type.
"""

import sys
import warnings
from itertools import chain, islice

from .context import Opaque, sample_step
from .introspect import (
    class_name,
    instance_attr,
    is_subclass,
    is_trusted_type,
    library_class,
)
from .jsonsafe import cut, short_repr

MAX_COLUMN_NAMES = 2_000  # R.columns is cut beyond this many names...
MAX_COLUMN_CHARS = 64 * 1024  # ...or this many characters, with columns_complete: false
EXAMPLES = 5
EXAMPLE_CHARS = 40
CATEGORICAL_MAX_UNIQUE = 20  # at most this many distinct values reads as categorical
TEXT_UNIQUE_RATIO = 0.5  # strings mostly distinct (above this ratio) read as text
LABEL_SAMPLE = 20_000  # strings, categories and objects: distinct values counted on this many
NAN_CHUNK_CELLS = 500_000  # number and date cells checked for NaN between deadline checks
LABEL_NAN_CELLS = 100_000  # string / object cells checked for NaN across a frame's columns...
# ...and at most LABEL_SAMPLE per column
CARDINALITY_PROBE = 1_000  # leading values that tell a continuous number column quickly
INDEX_LABELS = 200  # R.index_labels: an index of at most this many text labels is listed
_PLAIN_TYPES = frozenset({str, int, float, bool, type(None), bytes, complex})
# Library scalar types whose hash, equality and str run library code only.
_LIBRARY_SCALARS = frozenset(
    {"Timestamp", "Timedelta", "NaTType", "NAType", "Decimal", "date", "datetime", "time",
     "timedelta"}
)  # fmt: skip


def summarizer_for(obj):
    cls = type(obj)
    if _pandas_subclass(cls, "DataFrame") or _pandas_subclass(cls, "Series"):
        return summarize_frame if _pandas_subclass(cls, "DataFrame") else summarize_series
    if _pandas_subclass(cls, "Index") and is_trusted_type(cls):
        return summarize_index if _safe_index(obj) else None
    return None


def _pandas_subclass(cls, name: str) -> bool:
    base = library_class("pandas", name)
    return base is not None and is_subclass(cls, base)


def base_view(obj, name: str):
    """A fresh pandas `name` (DataFrame or Series) over `obj`'s data, built from the block manager
    it stores, with unnamed axes and no `attrs`: pandas validates (hashes) names and deep-copies
    attrs as results propagate them, and a subclass's overrides would run. Raises Opaque when the
    data holds a user's extension array or Index subclass."""
    manager = instance_attr(obj, "_mgr")
    if manager is None or not _safe_manager(manager):
        raise Opaque
    manager = manager.copy(deep=False)  # ours to relabel: the user's axes stay as they are
    for axis, labels in enumerate(manager.axes):
        manager.set_axis(axis, unnamed(labels))
    base = library_class("pandas", name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pandas < 2.1 warns about a manager passed to __init__
        view = (
            base._from_mgr(manager, axes=manager.axes)
            if hasattr(base, "_from_mgr")
            else base(manager)
        )
    if name == "Series":
        object.__setattr__(view, "_name", None)
    return view


def unnamed(index):
    """The Index (a shallow copy) without its name(s), which may be any hashable user object."""
    return index.set_names([None] * index.nlevels)


def _safe_manager(manager) -> bool:
    if not is_trusted_type(type(manager)):
        return False
    axes_safe = all(is_trusted_type(type(axis)) and _safe_index(axis) for axis in manager.axes)
    return axes_safe and all(is_trusted_type(type(block.values)) for block in manager.blocks)


def _safe_index(index) -> bool:
    """No user class in the Index's own data (a MultiIndex's levels, an extension array); read
    from the instance dicts, since `_values` would materialize a RangeIndex."""
    if class_name(type(index)) == "RangeIndex":
        return True
    levels = instance_attr(index, "_levels") if class_name(type(index)) == "MultiIndex" else [index]
    return levels is not None and all(
        is_trusted_type(type(instance_attr(level, "_data"))) for level in levels
    )


def _index_names(frame):
    """The names of the frame's index levels, read from the Index its block manager holds
    (`base_view` checked it is a pandas one), when each is a str or None; a name may be any
    hashable user object, which is left alone (None: not reported)."""
    names = list(instance_attr(frame, "_mgr").axes[1].names)
    return names if all(name is None or type(name) is str for name in names) else None


def _index_labels(index):
    """Every label of a plain one-level Index of at most INDEX_LABELS labels, each exactly a str
    (so that `.loc` of any other text raises KeyError); None otherwise."""
    if class_name(type(index)) != "Index" or len(index) > INDEX_LABELS:
        return None
    labels = list(index)
    return labels if all(type(label) is str for label in labels) else None


def summarize_frame(frame, ctx) -> dict:
    view = base_view(frame, "DataFrame")
    rows, width = view.shape
    head = min(width, MAX_COLUMN_NAMES)
    positions = list(range(head)) + _focus_positions_beyond(view.columns, head, ctx)
    if len(positions) == width:
        considered = view
    else:  # a slice is a view; `take` copies
        considered = view.iloc[:, :head] if len(positions) == head else view.iloc[:, positions]
    names, faithful = label_texts(considered.columns.tolist())
    listed = capped_names(names[:head])
    step = sample_step(rows, len(positions))
    sample = considered.iloc[::step] if step > 1 else considered
    nan_flags, nan_complete, nan_sampled = _nan_flags(sample, ctx)
    nan_columns = [name for name, has_nan in zip(names, nan_flags) if has_nan]
    column_values = {}
    for position in _detail_order(names, ctx):
        if ctx.budget.expired():
            ctx.truncated = True
            break
        try:
            column_values[names[position]] = value_facts(_column(sample, position))
        except Exception as exc:  # one odd column must not sink the frame
            column_values[names[position]] = {"error": "raised", "exception": class_name(type(exc))}
    representation = {
        "columns": listed,
        "dtypes": dict(zip(listed, _dtype_texts(considered.dtypes))),
        "index": class_name(type(view.index)),
        "index_names": _index_names(frame),
        "index_labels": _index_labels(view.index),
    }
    if len(listed) < width or not faithful:
        representation["columns_complete"] = False
    every_column_checked = nan_complete and len(positions) == width
    return {
        "kind": "dataframe",
        "S": {"shape": [rows, width]},
        "R": representation,
        "V": {
            # No NaN found is only a fact when every column was looked at.
            "has_nan": True if nan_columns else (False if every_column_checked else None),
            "nan_columns": capped_names(nan_columns),
            "column_values": column_values,
        },
        "sampled": step > 1 or nan_sampled,
    }


def summarize_series(series, ctx) -> dict:
    view = base_view(series, "Series")
    step = sample_step(len(view))
    name = instance_attr(series, "_name")
    return {
        "kind": "series",
        "S": {"shape": [len(view)]},
        "R": {
            "dtype": str(view.dtype),
            "name": None if name is None else label_texts([name])[0][0],
            "index": class_name(type(view.index)),
        },
        "V": value_facts(view.iloc[::step] if step > 1 else view),
        "sampled": step > 1,
    }


def summarize_index(index, ctx) -> dict:
    index = unnamed(index)
    step = sample_step(len(index))
    return {
        "kind": "index",
        "S": {"shape": [len(index)]},
        "R": {"dtype": str(index.dtype), "class": class_name(type(index))},
        "V": value_facts(index[::step] if step > 1 else index),
        "sampled": step > 1,
    }


def _column(frame, position: int):
    """The column as a Series without a name (its label may be a user object pandas would hash)."""
    column = frame.iloc[:, position]
    object.__setattr__(column, "_name", None)
    return column


def _dtype_texts(dtypes) -> list:
    texts = {}  # numpy's `str(dtype)` is slow Python code: once per distinct dtype
    for dtype in dtypes:
        if dtype not in texts:
            texts[dtype] = str(dtype)
    return [texts[dtype] for dtype in dtypes]


def label_texts(labels) -> tuple:
    """(the labels as text, whether every text is the label's own `str`): a label of a user class
    shows as `<Class>`, its `__str__` never runs."""
    texts, faithful = [], True
    for label in labels:
        if type(label) is str:
            texts.append(label)
        elif _plain_label(label):
            texts.append(str(label))
        else:
            texts.append(short_repr(label, 60))
            faithful = False
    return texts, faithful


def _plain_label(label) -> bool:
    if type(label) is tuple:  # a MultiIndex entry
        return all(_is_plain_type(type(part)) for part in label)
    return _is_plain_type(type(label))


def _is_plain_type(cls) -> bool:
    """Builtin and library scalars: hashing, comparing and formatting them runs no user code."""
    if cls in _PLAIN_TYPES:
        return True
    if not is_trusted_type(cls):
        return False
    generic = library_class("numpy", "generic")
    return class_name(cls) in _LIBRARY_SCALARS or (
        generic is not None and is_subclass(cls, generic)
    )


def _all_plain(array) -> bool:
    """Whether every value of an object array is of a plain type (see _is_plain_type)."""
    return all(_is_plain_type(kind) for kind in set(map(type, array)))


def _focus_positions_beyond(labels, head: int, ctx) -> list:
    """Positions after the first `head` columns of the mentioned columns (very wide frames)."""
    wanted = set(ctx.focus_columns)
    if len(labels) <= head or not wanted:
        return []
    found = {}
    for position, label in enumerate(labels[head:].tolist(), head):
        if type(label) is str and label in wanted:
            found.setdefault(label, position)
        if position % 10_000 == 0:
            ctx.budget.check()
    return sorted(found.values())


def _nan_flags(sample, ctx) -> tuple:
    """(per column: NaN found?, whether every column was checked, sampled?). Numbers, booleans
    and dates are checked by pandas at once; strings, categories and objects on a strided sample
    of their values, object columns through pandas only when all of those are plain values."""
    kinds = {}  # per distinct dtype: pandas' dtype checks are slow Python code
    labels = [
        kinds[dtype] if dtype in kinds else kinds.setdefault(dtype, _is_label_dtype(dtype))
        for dtype in sample.dtypes
    ]
    flags = [False] * len(labels)
    others = [position for position, label in enumerate(labels) if not label]
    # In chunks of about NAN_CHUNK_CELLS cells, so that the deadline is checked in between.
    chunk = max(1, NAN_CHUNK_CELLS // max(len(sample), 1))
    for start in range(0, len(others), chunk):
        if ctx.budget.expired():
            ctx.truncated = True
            return flags, False, False
        positions = others[start : start + chunk]
        found = sample.iloc[:, positions].isna().any().to_numpy().tolist()
        for position, has_nan in zip(positions, found):
            flags[position] = has_nan
    chosen = [position for position, label in enumerate(labels) if label]
    per_column = min(LABEL_SAMPLE, max(1_000, LABEL_NAN_CELLS // max(len(chosen), 1)))
    sampled = False
    for position in chosen:
        if ctx.budget.expired():
            ctx.truncated = True
            return flags, False, sampled
        column = _column(sample, position)
        step = _step(len(column), per_column)
        sampled = sampled or step > 1
        flags[position] = _has_nan(column.iloc[::step] if step > 1 else column)
    return flags, True, sampled


def _is_label_dtype(dtype) -> bool:
    """Strings, categories, objects: anything but booleans, real numbers and dates."""
    types = sys.modules["pandas"].api.types
    return not (
        types.is_bool_dtype(dtype)
        or types.is_datetime64_any_dtype(dtype)
        or types.is_timedelta64_dtype(dtype)
        or (types.is_numeric_dtype(dtype) and not types.is_complex_dtype(dtype))
    )


def _step(length: int, limit: int) -> int:
    """The stride that leaves at most `limit` of `length` values."""
    return -(-length // limit) if length > limit else 1


def _has_nan(values) -> bool:
    if not sys.modules["pandas"].api.types.is_object_dtype(values.dtype):
        return bool(values.isna().any())
    array = values.to_numpy()
    if _all_plain(array):
        return bool(sys.modules["pandas"].isna(array).any())
    # User objects: missing means None or a float NaN, told apart by type alone.
    return any(value is None or (type(value) is float and value != value) for value in array)


def value_facts(values) -> dict:
    """`{kind, has_nan, unique, range, examples}` of a Series or Index (the schema's `values`)."""
    types = sys.modules["pandas"].api.types
    dtype = values.dtype
    if _is_label_dtype(dtype):
        return _label_facts(values)
    present = values.dropna()
    facts = {"has_nan": len(present) < len(values)}
    if len(present) == 0:
        facts["kind"] = "empty"
    elif types.is_bool_dtype(dtype):
        facts.update(kind="binary", unique=int(present.nunique()))
    elif types.is_datetime64_any_dtype(dtype) or types.is_timedelta64_dtype(dtype):
        facts.update(
            kind="datetime" if types.is_datetime64_any_dtype(dtype) else "continuous",
            range=[str(present.min()), str(present.max())],
        )
    else:
        facts["range"] = [present.min(), present.max()]
        if _head(present, CARDINALITY_PROBE).nunique() > CATEGORICAL_MAX_UNIQUE:
            # Surely continuous: counting every distinct float is the costliest fact, so skip it.
            facts["kind"] = "continuous"
        else:
            unique = int(present.nunique())
            # Categories repeat: four distinct floats in four rows are measurements, not classes.
            limit = min(CATEGORICAL_MAX_UNIQUE, int(TEXT_UNIQUE_RATIO * len(present)))
            facts.update(kind=_kind_by_cardinality(unique, limit), unique=unique)
    return facts


def _label_facts(values) -> dict:
    """Strings, categories and other Python objects, on at most LABEL_SAMPLE values: distinct
    count, examples, mixed types. Objects of user classes (or holding them: lists, dicts) are
    neither hashed nor formatted: their column gets kind `object`, its NaN presence and types."""
    step = _step(len(values), LABEL_SAMPLE)
    sample = values[::step] if step > 1 else values
    facts = {"sampled": True} if step > 1 else {}
    is_object = sys.modules["pandas"].api.types.is_object_dtype(sample.dtype)
    if is_object and not _all_plain(sample.to_numpy()):
        return {**facts, **_object_facts(sample.to_numpy())}
    present = sample.dropna()
    facts["has_nan"] = len(present) < len(sample)
    if len(present) == 0:
        facts["kind"] = "empty"
        return facts
    distinct = present.unique()
    unique = len(distinct)
    if isinstance(values.dtype, sys.modules["pandas"].CategoricalDtype):
        facts["kind"] = "categorical"
    else:
        text_limit = max(CATEGORICAL_MAX_UNIQUE, int(TEXT_UNIQUE_RATIO * len(present)))
        facts["kind"] = _kind_by_cardinality(unique, text_limit, "text")
    facts["unique"] = unique
    facts["examples"] = [
        cut(value, EXAMPLE_CHARS) if type(value) is str else value
        for value in list(distinct[:EXAMPLES])
    ]
    if is_object:
        kinds = sorted({class_name(kind) for kind in set(map(type, present.to_numpy()))})
        if len(kinds) > 1:
            facts["types"] = kinds  # e.g. ["float", "str"]: comparisons or arithmetic will fail
    return facts


def _object_facts(array) -> dict:
    """An object column holding values of user classes or containers, read by type alone."""
    missing = [value is None or (type(value) is float and value != value) for value in array]
    kinds = sorted({class_name(type(value)) for value, gap in zip(array, missing) if not gap})
    facts = {"kind": "object", "has_nan": any(missing)}
    if len(kinds) > 1:
        facts["types"] = kinds
    return facts


def _kind_by_cardinality(unique: int, categorical_limit: int, above: str = "continuous") -> str:
    if unique == 2:
        return "binary"
    return "categorical" if unique <= categorical_limit else above


def _detail_order(names, ctx):
    """Column positions for value detail: mentioned columns first, then the others, capped."""
    position_of = {}
    for position, name in enumerate(names):
        position_of.setdefault(name, position)
    focused = [
        position_of[name] for name in dict.fromkeys(ctx.focus_columns) if name in position_of
    ]
    chosen = set(focused)
    rest = (position for position in range(len(names)) if position not in chosen)
    return list(islice(chain(focused, rest), ctx.max_columns))


def _head(values, count: int):
    """The first `count` entries by position, of a Series (`iloc`) or an Index (slicing)."""
    return values.iloc[:count] if _pandas_subclass(type(values), "Series") else values[:count]


def capped_names(names):
    """The names in order while they fit MAX_COLUMN_NAMES and MAX_COLUMN_CHARS."""
    total = 0
    for count, name in enumerate(names):
        total += len(name) + 4  # quotes, comma, space as serialized
        if count >= MAX_COLUMN_NAMES or total > MAX_COLUMN_CHARS:
            return names[:count]
    return names
