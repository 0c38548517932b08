"""Prints crate/src/semantics/module_tables.rs, read off the installed numpy, pandas, Keras,
TensorFlow and Python:

    .venv/bin/python scripts/module_tables.py > crate/src/semantics/module_tables.rs

- MODULE_NAMES: for each module notebooks use most, every name it has: `dir()`, `__all__` and
  the names of its submodules (importable whether or not imported yet). A name outside the list
  that misspells one inside (`np.arrange`, `pd.read_cvs`, `math.sqroot`) is an AttributeError.
  Each line holds the names in one string, space-separated and space-padded (a smaller bundle
  than one `&str` per name, and one substring search per lookup).
- TENSORFLOW_1_NAMES: the names TensorFlow 2.0 removed, from TensorFlow's own upgrade table
  (`tensorflow/tools/compatibility/renames_v2.py`, what `tf_upgrade_v2` rewrites), with what
  replaces them, kept when the installed TensorFlow still lacks them (a path below a module
  TensorFlow 2 lacks, `tf.layers.dense`, is cut at the module); and `tf.contrib`, which the
  upgrade script's module table says is no longer distributed.
- KERAS_2_NAMES: names of Keras 2 (`keras.optimizers.adam`, `keras.layers.core`) the installed
  Keras lacks.
"""

import importlib
import pkgutil
import sys

import keras
import numpy as np
import pandas as pd
import tensorflow as tf
from tensorflow.tools.compatibility import renames_v2

# (module, the library whose version the kernel reports for it; "python" for the standard
# library).
MODULES = [
    ("numpy", "numpy"),
    ("numpy.random", "numpy"),
    ("numpy.linalg", "numpy"),
    ("pandas", "pandas"),
    ("keras", "keras"),
    ("keras.layers", "keras"),
    ("keras.optimizers", "keras"),
    ("keras.utils", "keras"),
    ("math", "python"),
    ("os.path", "python"),
    ("random", "python"),
]

VERSIONS = {
    "numpy": np.__version__,
    "pandas": pd.__version__,
    "keras": keras.__version__,
    "python": ".".join(map(str, sys.version_info[:3])),
}


# Keras 2's names that Keras 3 dropped (its lowercase optimizer aliases and the submodules of
# `keras.layers`, `from keras.layers.core import Dense`), kept where the installed Keras lacks
# them: close to names Keras 3 has (`adam`, `Adam`), they are no misspellings.
KERAS_2_NAMES = {
    "keras.optimizers": ["sgd", "rmsprop", "adagrad", "adadelta", "adam", "adamax", "nadam"],
    "keras.layers": [
        "advanced_activations", "convolutional", "convolutional_recurrent", "core",
        "cudnn_recurrent", "embeddings", "local", "merge", "noise", "normalization", "pooling",
        "recurrent", "wrappers", "CuDNNGRU", "CuDNNLSTM", "DenseFeatures", "LocallyConnected1D",
        "LocallyConnected2D", "ThresholdedReLU",
    ],
    "keras.utils": ["np_utils", "vis_utils", "generic_utils", "data_utils", "io_utils"],
    "keras.models": ["model_from_yaml"],
    "keras": ["engine", "wrappers"],
}


def keras_2_names() -> list[tuple[str, str]]:
    return sorted(
        (module, name)
        for module, names in KERAS_2_NAMES.items()
        for name in names
        if not hasattr(importlib.import_module(module), name)
    )


def names_of(module_name: str) -> set[str]:
    module = importlib.import_module(module_name)
    names = set(dir(module)) | set(getattr(module, "__all__", []))
    if hasattr(module, "__path__"):
        names |= {info.name for info in pkgutil.iter_modules(module.__path__)}
    return {n for n in names if not n.startswith("_")}


# TensorFlow's modules whose TensorFlow 1 names notebooks use most, `tf.train.AdamOptimizer`
# and `tf.nn.rnn_cell` (the others, `losses`, `data`, `summary`, `tpu`, ..., are left out of
# the bundle; a module TensorFlow 2 lacks as a whole, `tf.layers`, is in).
NOTEBOOK_MODULES = {"train", "nn"}


def tensorflow_1_names() -> list[str]:
    """`path` where TensorFlow 1's `tf.path` became `tf.compat.v1.path`, `path=new` where it
    became `tf.new`, `path=` where nothing replaces it; a path below a module TensorFlow 2 lacks
    is cut at that module."""
    removed = {"contrib": "contrib="}
    # `tf.mixed_precision` is a module of some TensorFlow 2 releases (2.21 lacks it): not a name
    # only TensorFlow 1 had.
    came_back = {"mixed_precision"}
    for old, new in renames_v2.renames.items():
        # The table also renames names of `from tensorflow.contrib import data as contrib_data`.
        if not old.startswith("tf."):
            continue
        path = old.split(".")[1:]
        if path[0] in came_back:
            continue
        owner = tf
        for depth, part in enumerate(path):
            if depth > 0 and path[0] not in NOTEBOOK_MODULES:
                break
            if not hasattr(owner, part):
                cut = ".".join(path[: depth + 1])
                if depth + 1 < len(path):
                    removed.setdefault(cut, cut)
                else:
                    replacement = new.removeprefix("tf.")
                    removed[cut] = cut if replacement == "compat.v1." + cut else f"{cut}={replacement}"
                break
            owner = getattr(owner, part)
    return sorted(removed.values())


def main() -> None:
    print(
        "//! Tables read off "
        + ", ".join(f"{lib} {VERSIONS[lib]}" for lib in ("numpy", "pandas", "keras"))
        + f", TensorFlow {tf.__version__} and Python {VERSIONS['python']}\n"
        "//! by `scripts/module_tables.py` (generated: edit the script, not this file).\n"
    )
    print("/// (module, library, the library's version, ` name name ... `).")
    print("pub(crate) const MODULE_NAMES: &[(&str, &str, &str, &str)] = &[")
    for module, library in MODULES:
        names = " ".join(sorted(names_of(module)))
        print(f'    ("{module}", "{library}", "{VERSIONS[library]}", " {names} "),')
    print("];\n")
    print(
        "/// ` path path=new ... `: `tf.path` of TensorFlow 1, which TensorFlow 2 (2.0 and later)"
        " lacks;\n/// `path` alone where it became `tf.compat.v1.path`, `path=new` where it"
        " became `tf.new`,\n/// `path=` where nothing replaces it."
    )
    print("/// (module, name): names of Keras 2 that Keras 3 lacks.")
    print("pub(crate) const KERAS_2_NAMES: &[(&str, &str)] = &[")
    for module, name in keras_2_names():
        print(f'    ("{module}", "{name}"),')
    print("];\n")
    print(f'pub(crate) const TENSORFLOW_1_NAMES: &str = " {" ".join(tensorflow_1_names())} ";')


if __name__ == "__main__":
    main()
