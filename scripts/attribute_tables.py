"""Prints crate/src/rules/attr_tables.rs, read off the installed matplotlib, numpy and Python:

    python scripts/attribute_tables.py > crate/src/rules/attr_tables.rs

(run with a Python where matplotlib is installed; the project's .venv has none).

- AXES_ONLY: public attributes of `matplotlib.axes.Axes` that `numpy.ndarray` lacks: on the
  array of Axes `plt.subplots(2, 2)` returns they raise AttributeError.
- DATETIME_CLASS_ONLY: public attributes of the classes of the `datetime` module (`datetime`,
  `date`, `time`, `timedelta`) that the module itself lacks, with the class that has them
  (`datetime.now()` after `import datetime`: AttributeError).
"""

import datetime
import sys

import matplotlib
import numpy as np
from matplotlib.axes import Axes


def public(names) -> set[str]:
    return {n for n in names if not n.startswith("_")}


def main() -> None:
    axes_only = sorted(public(dir(Axes)) - set(dir(np.ndarray)))
    module = set(dir(datetime))
    classes = [datetime.datetime, datetime.date, datetime.time, datetime.timedelta]
    class_only: dict[str, str] = {}
    for cls in classes:
        for name in sorted(public(dir(cls)) - module):
            class_only.setdefault(name, cls.__name__)
    print(
        f"//! Tables read off matplotlib {matplotlib.__version__}, numpy {np.__version__} and Python"
        f" {sys.version.split()[0]} by\n//! `scripts/attribute_tables.py` (generated: edit the"
        " script, not this file).\n"
    )
    print("/// Public attributes of a matplotlib `Axes` that a numpy array lacks.")
    print("pub(super) const AXES_ONLY: &[&str] = &[")
    for name in axes_only:
        print(f'    "{name}",')
    print("];\n")
    print(
        "/// Public attributes of the `datetime` module's classes that the module lacks, and the"
        " class\n/// that has each."
    )
    print("pub(super) const DATETIME_CLASS_ONLY: &[(&str, &str)] = &[")
    for name, cls in sorted(class_only.items()):
        print(f'    ("{name}", "{cls}"),')
    print("];")


if __name__ == "__main__":
    main()
