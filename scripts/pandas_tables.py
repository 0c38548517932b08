"""Prints crate/src/semantics/pandas_tables.rs, read off the installed pandas:

    .venv/bin/python scripts/pandas_tables.py > crate/src/semantics/pandas_tables.rs

- FRAME_ATTRIBUTES: the public attributes of `pandas.DataFrame`, with those of earlier releases
  the installed one lacks (FORMER_FRAME_ATTRIBUTES, from pandas' release notes) and the names a
  column is never read under (NEVER_COLUMNS): `df.x` with one of these names is not a column
  access, whichever pandas the kernel runs.
- FRAME_METHODS, SERIES_METHODS, INDEX_METHODS: the public methods of each class (plain
  functions of the class and class methods, not properties nor accessors): `df.head` without
  its call is a bound method, of Python's type `method`.
- REMOVED_MODULE_ATTRIBUTES: top-level names of the `pandas` module that earlier releases had and
  later ones removed (from pandas' release notes), each checked absent from the installed pandas:
  the first major release that lacks it, and what replaces it.
"""

import inspect

import pandas as pd

# DataFrame attributes of pandas 1.x and 2.x that later releases removed (1.x kept what 0.x
# deprecated last; 2.0 and 3.0 removed what 1.x and 2.x deprecated).
FORMER_FRAME_ATTRIBUTES = {
    "append",
    "applymap",
    "as_matrix",
    "backfill",
    "bool",
    "convert_objects",
    "first",
    "ftypes",
    "get_dtype_counts",
    "get_value",
    "get_values",
    "is_copy",
    "iteritems",
    "ix",
    "last",
    "lookup",
    "mad",
    "pad",
    "set_value",
    "slice_shift",
    "swapaxes",
    "to_dense",
    "to_gbq",
    "to_sparse",
    "tshift",
}

# Attributes of a Series (its accessors, name and dtype) and of what `df.x` may give: read as
# attributes, never as columns, wherever the rules meet them.
NEVER_COLUMNS = {"case_when", "cat", "dt", "dtype", "list", "name", "str", "struct", "timetuple"}


# Top-level names pandas removed: the first major release without them (0.23 removed the moving
# window functions deprecated in 0.18; 2.0 removed the module `__getattr__` that still gave
# `np`, `datetime`, `Panel` and the sparse classes in 1.x, and the numeric Index classes), and
# what replaces each.
WINDOW_STATISTICS = [
    "mean",
    "std",
    "sum",
    "var",
    "min",
    "max",
    "median",
    "count",
    "corr",
    "cov",
    "skew",
    "kurt",
    "quantile",
    "apply",
]
REMOVED_MODULE_ATTRIBUTES = {
    **{f"rolling_{s}": (1, f".rolling(window).{s}()") for s in WINDOW_STATISTICS},
    "rolling_window": (1, ".rolling(window, win_type=...)"),
    **{f"expanding_{s}": (1, f".expanding().{s}()") for s in WINDOW_STATISTICS},
    **{
        f"ewm{name}": (1, f".ewm(...).{method}()")
        for name, method in [
            ("a", "mean"),
            ("std", "std"),
            ("var", "var"),
            ("corr", "corr"),
            ("cov", "cov"),
        ]
    },
    "scatter_matrix": (2, "pd.plotting.scatter_matrix"),
    "TimeGrouper": (2, "pd.Grouper(freq=...)"),
    "Panel": (2, "a DataFrame with a MultiIndex, or xarray"),
    "Panel4D": (2, "xarray"),
    "WidePanel": (2, "a DataFrame with a MultiIndex, or xarray"),
    "datetools": (2, "pd.tseries.offsets"),
    "np": (2, "import numpy as np"),
    "datetime": (2, "import datetime"),
    "TimeSeries": (2, "pd.Series"),
    "SparseSeries": (2, "a Series of a pd.SparseDtype"),
    "SparseDataFrame": (2, "a DataFrame of SparseDtype columns"),
    "SparseArray": (2, "pd.arrays.SparseArray"),
    "Int64Index": (2, "pd.Index(values, dtype='int64')"),
    "UInt64Index": (2, "pd.Index(values, dtype='uint64')"),
    "Float64Index": (2, "pd.Index(values, dtype='float64')"),
    "ordered_merge": (2, "pd.merge_ordered"),
}


def methods_of(cls) -> list[str]:
    """The public names the class binds to a function or a class method."""
    return sorted(
        n
        for n in dir(cls)
        if not n.startswith("_")
        and (
            inspect.isfunction(inspect.getattr_static(cls, n))
            or isinstance(inspect.getattr_static(cls, n), classmethod)
        )
    )


def main() -> None:
    present = sorted(n for n in REMOVED_MODULE_ATTRIBUTES if hasattr(pd, n))
    assert not present, f"pandas {pd.__version__} has {present}"
    installed = {n for n in dir(pd.DataFrame) if not n.startswith("_")}
    names = sorted(installed | FORMER_FRAME_ATTRIBUTES | NEVER_COLUMNS)
    print(
        f"//! Tables read off pandas {pd.__version__} by `scripts/pandas_tables.py` (generated:"
        " edit the\n//! script, not this file).\n"
    )
    print(
        "/// Public attributes of `pandas.DataFrame`, with those earlier releases had and the names"
        " of\n/// Series attributes, space-separated (and around): `df.x` with one of these names is"
        " not a\n/// column access."
    )
    # One string rather than a slice of strings: a slice's pointers take room in the bundle.
    print(f'pub(crate) const FRAME_ATTRIBUTES: &str = " {" ".join(names)} ";')
    for const, cls in [
        ("FRAME_METHODS", pd.DataFrame),
        ("SERIES_METHODS", pd.Series),
        ("INDEX_METHODS", pd.Index),
    ]:
        methods = " ".join(methods_of(cls))
        print(
            f"\n/// The public methods of `pandas.{cls.__name__}`, space-separated (and around):"
            " the attribute\n/// of an instance is a bound method."
        )
        print(f'pub(crate) const {const}: &str = " {methods} ";')
    print(
        "\n/// Top-level names of the `pandas` module that earlier releases had: the first major"
        " release\n/// without it (each absent from this one) and what replaces it."
    )
    print("pub(crate) const REMOVED_MODULE_ATTRIBUTES: &[(&str, u32, &str)] = &[")
    for name, (major, instead) in sorted(REMOVED_MODULE_ATTRIBUTES.items()):
        entry = f'("{name}", {major}, "{instead}")'
        # rustfmt would split a wider tuple over lines.
        assert len(entry) <= 60, entry
        print(f"    {entry},")
    print("];")


if __name__ == "__main__":
    main()
