"""pandas DataFrame, Series and Index.

Value facts (NaN presence, unique counts, ranges, examples) of big data are computed on every k-th
row, a strided `iloc` view of at most SAMPLE_CELLS cells, and flagged `sampled`: a NaN that only
occurs between sampled rows is then missed, which is why the flag exists. Structure and
representation facts (shape, every column name and dtype) are always exact. Columns get value
detail in relevance order (`focus_columns`, the ones the cell mentions, first) up to `max_columns`,
and the loop stops when the budget runs out.
"""

import sys
from itertools import chain, islice

from .context import sample_step
from .jsonsafe import cut

MAX_COLUMN_NAMES = 2_000  # R.columns is cut beyond this many names...
MAX_COLUMN_CHARS = 64 * 1024  # ...or this many characters, with columns_complete: false
EXAMPLES = 5
EXAMPLE_CHARS = 40
CATEGORICAL_MAX_UNIQUE = 20  # at most this many distinct values reads as categorical
TEXT_UNIQUE_RATIO = 0.5  # strings mostly distinct (above this ratio) read as text
TYPE_SCAN = 1_000  # object values inspected for mixed Python types
CARDINALITY_PROBE = 1_000  # leading values that tell a continuous number column quickly


def summarizer_for(obj):
    pandas = sys.modules.get("pandas")
    if pandas is None:
        return None
    cls = type(obj)
    if issubclass(cls, pandas.DataFrame):
        return summarize_frame
    if issubclass(cls, pandas.Series):
        return summarize_series
    if issubclass(cls, pandas.Index):
        return summarize_index
    return None


def summarize_frame(frame, ctx) -> dict:
    names = [str(label) for label in frame.columns]
    listed = capped_names(names)
    step = sample_step(len(frame), len(names))
    sample = frame.iloc[::step] if step > 1 else frame
    nan_flags = sample.isna().any().to_numpy().tolist()
    nan_columns = [name for name, has_nan in zip(names, nan_flags) if has_nan]
    column_values = {}
    for position in _detail_order(names, ctx):
        if ctx.budget.expired():
            ctx.truncated = True
            break
        try:
            column_values[names[position]] = value_facts(sample.iloc[:, position])
        except Exception as exc:  # one odd column (unhashable values...) must not sink the frame
            column_values[names[position]] = {"error": f"{type(exc).__name__}: {exc}"}
    representation = {
        "columns": listed,
        "dtypes": {name: str(dtype) for name, dtype in zip(listed, frame.dtypes)},
        "index": type(frame.index).__name__,
    }
    if len(listed) < len(names):
        representation["columns_complete"] = False
    return {
        "kind": "dataframe",
        "S": {"shape": list(frame.shape)},
        "R": representation,
        "V": {
            "has_nan": bool(nan_columns),
            "nan_columns": capped_names(nan_columns),
            "column_values": column_values,
        },
        "sampled": step > 1,
    }


def summarize_series(series, ctx) -> dict:
    step = sample_step(len(series))
    return {
        "kind": "series",
        "S": {"shape": [len(series)]},
        "R": {
            "dtype": str(series.dtype),
            "name": None if series.name is None else str(series.name),
            "index": type(series.index).__name__,
        },
        "V": value_facts(series.iloc[::step] if step > 1 else series),
        "sampled": step > 1,
    }


def summarize_index(index, ctx) -> dict:
    step = sample_step(len(index))
    return {
        "kind": "index",
        "S": {"shape": [len(index)]},
        "R": {"dtype": str(index.dtype), "class": type(index).__name__},
        "V": value_facts(index[::step] if step > 1 else index),
        "sampled": step > 1,
    }


def value_facts(values) -> dict:
    """`{kind, has_nan, unique, range, examples}` of a Series or Index (the schema's `values`)."""
    types = sys.modules["pandas"].api.types
    dtype = values.dtype
    present = values.dropna()
    facts = {"has_nan": len(present) < len(values)}
    if len(present) == 0:
        facts["kind"] = "empty"
        return facts
    if types.is_bool_dtype(dtype):
        facts.update(kind="binary", unique=int(present.nunique()))
    elif types.is_datetime64_any_dtype(dtype) or types.is_timedelta64_dtype(dtype):
        facts.update(
            kind="datetime" if types.is_datetime64_any_dtype(dtype) else "continuous",
            range=[str(present.min()), str(present.max())],
        )
    elif types.is_numeric_dtype(dtype) and not types.is_complex_dtype(dtype):
        facts["range"] = [present.min(), present.max()]
        if _head(present, CARDINALITY_PROBE).nunique() > CATEGORICAL_MAX_UNIQUE:
            # Surely continuous: counting every distinct float is the costliest fact, so skip it.
            facts["kind"] = "continuous"
        else:
            unique = int(present.nunique())
            facts.update(kind=_kind_by_cardinality(unique, CATEGORICAL_MAX_UNIQUE), unique=unique)
    else:
        facts.update(
            _label_facts(
                present, categorical=isinstance(dtype, sys.modules["pandas"].CategoricalDtype)
            )
        )
    return facts


def _label_facts(present, categorical: bool) -> dict:
    """Strings, categories and other Python objects: distinct count, examples, mixed types."""
    facts = {}
    try:
        distinct = present.unique()
    except TypeError:  # unhashable values (lists, dicts) have no distinct count
        distinct = None
    if distinct is not None:
        unique = len(distinct)
        text_limit = max(CATEGORICAL_MAX_UNIQUE, int(TEXT_UNIQUE_RATIO * len(present)))
        facts["kind"] = (
            "categorical" if categorical else _kind_by_cardinality(unique, text_limit, "text")
        )
        facts["unique"] = unique
        examples = list(distinct[:EXAMPLES])
    else:
        facts["kind"] = "text"
        examples = _head(present, EXAMPLES).tolist()
    facts["examples"] = [
        cut(str(value), EXAMPLE_CHARS) if issubclass(type(value), str) else value
        for value in examples
    ]
    if present.dtype == object:
        kinds = sorted({type(value).__name__ for value in _head(present, TYPE_SCAN).tolist()})
        if len(kinds) > 1:
            facts["types"] = kinds  # e.g. ["float", "str"]: comparisons or arithmetic will fail
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
    return values.iloc[:count] if hasattr(type(values), "iloc") else values[:count]


def capped_names(names):
    """The names in order while they fit MAX_COLUMN_NAMES and MAX_COLUMN_CHARS."""
    total = 0
    for count, name in enumerate(names):
        total += len(name) + 4  # quotes, comma, space as serialized
        if count >= MAX_COLUMN_NAMES or total > MAX_COLUMN_CHARS:
            return names[:count]
    return names
