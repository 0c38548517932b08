"""Prints crate/src/semantics/pandas_tables.rs, read off the installed pandas:

    .venv/bin/python scripts/pandas_tables.py > crate/src/semantics/pandas_tables.rs

- FRAME_ATTRIBUTES: the public attributes of `pandas.DataFrame`, with those of earlier releases
  the installed one lacks (FORMER_FRAME_ATTRIBUTES, from pandas' release notes) and the names a
  column is never read under (NEVER_COLUMNS): `df.x` with one of these names is not a column
  access, whichever pandas the kernel runs.
"""

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


def main() -> None:
    installed = {n for n in dir(pd.DataFrame) if not n.startswith("_")}
    names = sorted(installed | FORMER_FRAME_ATTRIBUTES | NEVER_COLUMNS)
    print(
        f"//! Tables read off pandas {pd.__version__} by `scripts/pandas_tables.py` (generated:"
        " edit the\n//! script, not this file).\n"
    )
    print(
        "/// Public attributes of `pandas.DataFrame`, with those earlier releases had and the names"
        " of\n/// Series attributes: `df.x` with one of these names is not a column access."
    )
    print("pub(crate) const FRAME_ATTRIBUTES: &[&str] = &[")
    for name in names:
        print(f'    "{name}",')
    print("];")


if __name__ == "__main__":
    main()
