"""Prints crate/src/semantics/attr_tables.rs, read off the installed matplotlib, numpy and Python:

    python scripts/attribute_tables.py > crate/src/semantics/attr_tables.rs

(run with a Python where matplotlib is installed; the project's .venv has none).

- AXES_ONLY: public attributes of `matplotlib.axes.Axes` that `numpy.ndarray` lacks: on the
  array of Axes `plt.subplots(2, 2)` returns they raise AttributeError.
- DATETIME_CLASS_ONLY: public attributes of the classes of the `datetime` module (`datetime`,
  `date`, `time`, `timedelta`) that the module itself lacks, with the class that has them
  (`datetime.now()` after `import datetime`: AttributeError).
- PYPLOT_ONLY: pyplot's commands (`plt.get_plot_commands()`) that the `matplotlib` package
  lacks: neither an attribute of it (pyplot imported, which imports most submodules), nor the
  name of one of its submodules, nor a name it had in earlier releases
  (`import matplotlib as plt; plt.plot(...)`: AttributeError).
- NDARRAY_ATTRIBUTES: the public attributes of `numpy.ndarray`, with those numpy 2.0 removed
  (`itemset`, `newbyteorder`, `ptp`): any other attribute of a plain ndarray raises
  AttributeError under numpy 1.x and 2.x alike (`arr.append(x)`, `arr.head()`).
"""

import datetime
import pkgutil
import sys

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes

# Names the matplotlib package had in releases 3.0 to 3.8: `get_cmap` (removed in 3.9) and the
# `tight_layout` submodule (private since 3.6).
FORMERLY_TOP_LEVEL = {"get_cmap", "tight_layout"}

# Methods of ndarray that numpy 2.0 removed (its release notes).
FORMER_NDARRAY_METHODS = {"itemset", "newbyteorder", "ptp"}


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
    print("pub(crate) const AXES_ONLY: &[&str] = &[")
    for name in axes_only:
        print(f'    "{name}",')
    print("];\n")
    print(
        "/// Public attributes of the `datetime` module's classes that the module lacks, and the"
        " class\n/// that has each."
    )
    print("pub(crate) const DATETIME_CLASS_ONLY: &[(&str, &str)] = &[")
    for name, cls in sorted(class_only.items()):
        print(f'    ("{name}", "{cls}"),')
    print("];\n")
    submodules = {m.name for m in pkgutil.iter_modules(matplotlib.__path__)}
    pyplot_only = sorted(
        name
        for name in plt.get_plot_commands()
        if not hasattr(matplotlib, name)
        and name not in submodules
        and name not in FORMERLY_TOP_LEVEL
    )
    print("/// pyplot's commands that the `matplotlib` package lacks, now and in earlier releases.")
    print("pub(crate) const PYPLOT_ONLY: &[&str] = &[")
    for name in pyplot_only:
        print(f'    "{name}",')
    print("];\n")
    print(
        "/// Public attributes of `numpy.ndarray`, with the methods numpy 2.0 removed: a plain array"
        "\n/// has no other."
    )
    print("pub(crate) const NDARRAY_ATTRIBUTES: &[&str] = &[")
    for name in sorted(public(dir(np.ndarray)) | FORMER_NDARRAY_METHODS):
        print(f'    "{name}",')
    print("];")


if __name__ == "__main__":
    main()
