"""Prints crate/src/semantics/property_tables.rs, read off the installed numpy, pandas,
scikit-learn, TensorFlow and Keras:

    .venv/bin/python scripts/property_tables.py > crate/src/semantics/property_tables.rs
    cargo fmt

- PROPERTIES: the public properties and data attributes of library classes (a DataFrame, a
  Series, an Index, a numpy array, a TensorFlow tensor, a Keras model) whose value is
  never callable: `df.shape()` raises TypeError: 'tuple' object is not callable. Each is read on
  several instances of the class (other dtypes, indexes, built models or not, TensorFlow
  variables with the tensors): it is kept when
  on every one it gives a value that calling raises "'T' object is not callable", with the T of
  each (one class, or several of one family: the arrays of `Series.values`, the Index classes of
  `df.index`). "array" holds those of a numpy array that pandas arrays and frames share, with the
  same class of value (what `Series.values` or a transformer's output may be).
- FITTED_ATTRIBUTES: the attributes `fit` gives every classifier and regressor of scikit-learn
  (fitted with default parameters on binary, multiclass and frame data; regressors also on
  2-D targets when they take them), kept as PROPERTIES are when their value is plain data (a
  number, a text, a container, a numpy array).
- Torch is not installed here: TORCH_TENSOR is written from torch's documentation
  (`Tensor.shape` is a `torch.Size`; `size()` and `dim()` are methods).
"""

import inspect
import re
import warnings

import keras
import numpy as np
import pandas as pd
import sklearn
import tensorflow as tf
from pandas.api.extensions import ExtensionArray, ExtensionDtype
from sklearn.utils import all_estimators

warnings.filterwarnings("ignore")

# Attributes whose value is whatever the user or the data set (a Series' name can be any
# hashable object, an array's base is any buffer), and `DataFrame.style`, which raises
# ImportError without jinja2.
USER_SET = {"name", "names", "base", "style", "path"}

# The families of classes one attribute may give, by the object's dtype or index.
FAMILIES = [(np.ndarray, ExtensionArray), (pd.Index,), (np.dtype, ExtensionDtype)]

TORCH_TENSOR = [
    ("T", "torch.Tensor", ["Tensor"]),
    ("device", "torch.device", ["torch.device"]),
    ("dtype", "torch.dtype", ["torch.dtype"]),
    ("is_cuda", "bool", ["bool"]),
    ("ndim", "int", ["int"]),
    ("requires_grad", "bool", ["bool"]),
    ("shape", "torch.Size", ["torch.Size"]),
]


def not_callable_as(value) -> str | None:
    """The class name in "'T' object is not callable" that calling `value` raises, or None."""
    if callable(value):
        return None
    try:
        value()
    except TypeError as e:
        m = re.fullmatch(r"'(.+)' object is not callable", str(e))
        return m.group(1) if m else None
    return None


def qualified(cls: type) -> str:
    """The class as the kernel's summaries name it (builtins bare)."""
    if cls.__module__ == "builtins":
        return cls.__qualname__
    return f"{cls.__module__}.{cls.__qualname__}"


def one_family(classes: set[type]) -> bool:
    return len(classes) == 1 or any(
        all(issubclass(c, family) for c in classes) for family in FAMILIES
    )


def value_classes(instances, name):
    """The classes of `getattr(obj, name)` over the instances, and how calling each is named;
    None when one raises or gives something callable."""
    classes, shown = set(), set()
    for obj in instances:
        try:
            value = getattr(obj, name)
        except Exception:
            return None
        as_named = not_callable_as(value)
        if as_named is None:
            return None
        classes.add(type(value))
        shown.add(as_named)
    return classes, shown


def row(classes, shown):
    path = qualified(next(iter(classes))) if len(classes) == 1 else ""
    return path, sorted(shown)


def properties(cls, instances):
    out = {}
    for name in dir(cls):
        if name.startswith("_") or name in USER_SET:
            continue
        static = inspect.getattr_static(cls, name)
        if not (isinstance(static, property) or inspect.isdatadescriptor(static)):
            continue
        found = value_classes(instances, name)
        if found and one_family(found[0]):
            out[name] = row(*found)
    return out


def plain_data(cls: type) -> bool:
    """Numbers, texts, containers and arrays: not None (what other parameters may set to an
    object), nor an estimator (a clone of one the user passed, which might be callable)."""
    return cls.__module__ in ("builtins", "numpy") and cls is not type(None)


def fitted_attributes(est_cls, datasets):
    fitted = []
    for X, y in datasets:
        try:
            fitted.append(sklearn.base.clone(est_cls()).fit(X, y))
        except Exception:
            continue
    if len(fitted) < 2:
        return {}
    names = set.intersection(
        *({n for n in dir(e) if n.endswith("_") and not n.startswith("_")} for e in fitted)
    )
    out = {}
    for name in sorted(names):
        found = value_classes(fitted, name)
        if found and len(found[0]) == 1 and plain_data(next(iter(found[0]))):
            out[name] = row(*found)
    return out


def print_rows(const, doc, rows):
    print(doc)
    print(f"pub(crate) const {const}: &[(&str, &str, &str, &[&str])] = &[")
    for owner, name, path, shown in rows:
        names = ", ".join(f'"{s}"' for s in shown)
        print(f'    ("{owner}", "{name}", "{path}", &[{names}]),')
    print("];\n")


def main() -> None:
    frames = [
        pd.DataFrame({"a": [1, 2], "b": ["x", "y"]}),
        pd.DataFrame({"a": [1.5]}, index=["r"]),
        pd.DataFrame({"t": [1]}, index=pd.to_datetime(["2020-01-01"])),
        pd.DataFrame(np.zeros((2, 2))),
    ]
    series = [
        pd.Series([1, 2]),
        pd.Series(["a", "b"], name="n"),
        pd.Series([1.0], index=pd.to_datetime(["2020-01-01"])),
        pd.Series(["a"], dtype="category"),
        pd.Series([1, None], dtype="Int64"),
    ]
    indexes = [pd.Index(["a", "b"]), pd.RangeIndex(3), pd.Index([1.5])]
    arrays = [np.zeros((2, 3)), np.array(["a"]), np.arange(3), np.array([[1, 2]]).T]
    array_likes = [*arrays, *frames, *series, *(s.values for s in series)]
    # The kernel's TensorFlow tensors include variables.
    tensors = [tf.constant([[1.0, 2.0]]), tf.constant([1, 2]), tf.ones((2, 2)), tf.Variable([1.0])]
    inp = keras.Input((3,))
    models = [
        keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)]),
        keras.Sequential([keras.layers.Dense(2)]),
        keras.Model(inp, keras.layers.Dense(1)(inp)),
    ]
    owners = [
        ("DataFrame", pd.DataFrame, frames),
        ("Series", pd.Series, series),
        ("Index", pd.Index, indexes),
        ("ndarray", np.ndarray, arrays),
        ("array", np.ndarray, array_likes),
        ("tf.Tensor", type(tensors[0]), tensors),
        ("keras.Model", keras.Model, models),
    ]
    rows = []
    for owner, cls, instances in owners:
        for name, (path, shown) in sorted(properties(cls, instances).items()):
            if owner == "array" and len(shown) > 1:
                continue
            rows.append((owner, name, path, shown))
    rows += [("torch.Tensor", name, path, shown) for name, path, shown in TORCH_TENSOR]

    rng = np.random.default_rng(0)
    X = rng.random((40, 3))
    frame = pd.DataFrame(X, columns=["a", "b", "c"])
    binary, multi = np.arange(40) % 2, np.arange(40) % 3
    target = X @ [1.0, 2.0, 3.0]
    classifiers = [(X, binary), (X, multi), (frame, binary)]
    regressors = [(X, target), (frame, target), (X, np.c_[target, -target])]
    fitted = []
    for kind, datasets in [("classifier", classifiers), ("regressor", regressors)]:
        for class_name, est_cls in all_estimators(type_filter=kind):
            for name, (path, shown) in fitted_attributes(est_cls, datasets).items():
                fitted.append((class_name, name, path, shown))

    versions = (
        f"numpy {np.__version__}, pandas {pd.__version__}, scikit-learn {sklearn.__version__},"
        f"\n//! TensorFlow {tf.__version__} and Keras {keras.__version__}"
    )
    print(
        f"//! Tables read off {versions} by `scripts/property_tables.py` (generated: edit the\n"
        "//! script, not this file).\n"
    )
    print_rows(
        "PROPERTIES",
        "/// Properties and data attributes whose value is never callable: (owner, attribute, the"
        "\n/// qualified class of the value when it has one, the classes as `TypeError: 'T' object"
        " is not\n/// callable` names them).",
        rows,
    )
    print_rows(
        "FITTED_ATTRIBUTES",
        "/// The attributes `fit` gives every instance of a scikit-learn estimator class, as"
        " PROPERTIES.",
        sorted(fitted),
    )


if __name__ == "__main__":
    main()
