"""Prints crate/src/semantics/keras_tables.rs, the string identifiers Keras resolves, read off the
installed Keras by calling its own `get` functions and layer constructors:

    .venv/bin/python scripts/keras_tables.py > crate/src/semantics/keras_tables.rs

- ACTIVATIONS, INITIALIZERS, REGULARIZERS: of every name of the module's registry
  (`ALL_OBJECTS_DICT`) and public attributes, and their lowercase forms, those that
  `keras.<module>.get` does not refuse with ValueError "Could not interpret ... identifier"
  (a name that raises anything else is kept: the rule stays silent on it).
- LAYER_PARAMS: for every class of `keras.layers`, its parameters that take one of these
  identifiers: built with small values for its required parameters, the class raises that
  ValueError when the parameter is a name no family knows (`"not_a_keras_name"`). A line is
  `Class param param`.
- LOSSES: of every name of `keras.losses`' registry and public attributes, their lowercase
  forms, and the names `compile` itself takes for a cross-entropy (`crossentropy`, `ce`), those
  a model compiled with them does not refuse with that ValueError when `fit` first runs.
- METRICS: the same for `compile(metrics=[name])`, of `keras.metrics`' names (`compile` itself
  takes `accuracy` and `acc`, in any case, picking the accuracy for the data).
- PADDINGS: for every class of `keras.layers` that, so built, refuses `padding="not_a_keras_name"`
  with ValueError "The `padding` argument must be a list/tuple or one of ...": which of the
  padding names Keras and other libraries document (`valid same causal full`) it takes, each
  also in upper case (the classes match padding ignoring case; the script checks it). A line is
  `Class name name`.
"""

import inspect
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import keras
import numpy as np
from keras.src import activations, initializers, losses, metrics, optimizers, regularizers

FAMILIES = {
    "ACTIVATIONS": activations,
    "INITIALIZERS": initializers,
    "REGULARIZERS": regularizers,
    "OPTIMIZERS": optimizers,
}
PUBLIC = {
    "ACTIVATIONS": keras.activations,
    "INITIALIZERS": keras.initializers,
    "REGULARIZERS": keras.regularizers,
    "OPTIMIZERS": keras.optimizers,
}
# Families whose `get` ignores case.
CASELESS = {"OPTIMIZERS"}
# Values for the required parameters of layer constructors.
REQUIRED = {
    "units": 2,
    "filters": 2,
    "kernel_size": 2,
    "rate": 0.5,
    "input_dim": 3,
    "output_dim": 2,
    "cell": None,
    "layer": None,
    "num_heads": 2,
    "key_dim": 2,
    "depth_multiplier": 1,
    "stddev": 0.1,
    "axis": -1,
    "n": 2,
    "num_tokens": 2,
    "target_shape": (2,),
    "dims": (1,),
    "function": None,
    "equation": "ab,bc->ac",
    "output_shape": (2,),
    "max_tokens": 2,
    "output_mode": "int",
    "height": 2,
    "width": 2,
}
UNKNOWN = "not_a_keras_name"


def refused(error: Exception | None) -> bool:
    return isinstance(error, ValueError) and "Could not interpret" in str(error)


def accepted(family: str) -> list[str]:
    module = FAMILIES[family]
    get = PUBLIC[family].get
    names = set(module.ALL_OBJECTS_DICT) | {n for n in dir(PUBLIC[family]) if not n.startswith("_")}
    names |= {n.lower() for n in names}

    def takes(name: str) -> bool:
        try:
            get(name)
        except Exception as e:
            return not refused(e)
        return True

    kept = [name for name in sorted(names) if takes(name)]
    if family in CASELESS:
        assert all(takes(name.upper()) for name in kept), family
        kept = sorted({name.lower() for name in kept})
    return kept


def compile_names_taken(param: str) -> list[str]:
    """The strings `compile` takes for `param` (`loss` or `metrics`) that a model so compiled does
    not refuse when `fit` first runs."""
    module = {"loss": losses, "metrics": metrics}[param]
    public = {"loss": keras.losses, "metrics": keras.metrics}[param]
    names = set(module.ALL_OBJECTS_DICT) | {n for n in dir(public) if not n.startswith("_")}
    # Names `compile` picks a class for itself, by the data.
    own = {"loss": {"crossentropy", "ce"}, "metrics": {"accuracy", "acc"}}[param]
    names |= {n.lower() for n in names} | own
    x, y = np.zeros((2, 2)), np.array([[0.0, 1.0], [1.0, 0.0]])

    def fits(name: str) -> bool:
        model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(2, activation="softmax")])
        given = {"loss": name} if param == "loss" else {"loss": "mse", "metrics": [name]}
        model.compile(optimizer="sgd", **given)
        try:
            model.fit(x, y, verbose=0)
        except Exception as e:
            return not refused(e)
        return True

    return [name for name in sorted(names) if fits(name)]


def built_with(cls, **kwargs):
    """The error `cls` raises, built with small required values and `kwargs`, or None."""
    sig = inspect.signature(cls.__init__)
    required = {
        p.name: REQUIRED[p.name]
        for p in sig.parameters.values()
        if p.name != "self"
        and p.default is inspect.Parameter.empty
        and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
        and p.name in REQUIRED
    }
    try:
        cls(**required, **kwargs)
    except Exception as e:
        return e
    return None


def paddings() -> list[str]:
    lines = []
    for cls_name in sorted(dir(keras.layers)):
        cls = getattr(keras.layers, cls_name)
        if not (inspect.isclass(cls) and issubclass(cls, keras.layers.Layer)):
            continue
        if "padding" not in inspect.signature(cls.__init__).parameters:
            continue
        error = built_with(cls, padding=UNKNOWN)
        if not (
            isinstance(error, ValueError)
            and "argument must be a list/tuple or one of" in str(error)
        ):
            continue
        taken = [
            n for n in ("valid", "same", "causal", "full") if built_with(cls, padding=n) is None
        ]
        assert all(built_with(cls, padding=n.upper()) is None for n in taken), cls_name
        lines.append(" ".join([cls_name, *taken]))
    return lines


def layer_params() -> list[str]:
    lines = []
    for cls_name in sorted(dir(keras.layers)):
        cls = getattr(keras.layers, cls_name)
        if not (inspect.isclass(cls) and issubclass(cls, keras.layers.Layer)):
            continue
        params = [
            p
            for p in inspect.signature(cls.__init__).parameters
            if (
                p in ("activation", "recurrent_activation")
                or p.endswith(("_initializer", "_regularizer"))
            )
            and refused(built_with(cls, **{p: UNKNOWN}))
        ]
        if params:
            lines.append(" ".join([cls_name, *params]))
    return lines


def main() -> None:
    print(
        f"""//! String identifiers read off Keras {keras.__version__} by `scripts/keras_tables.py`
//! (generated: edit the script, not this file). The script's docstring says how each is read.

pub(crate) const KERAS_VERSION: &str = "{keras.__version__}";
"""
    )
    for family in FAMILIES:
        names = " ".join(accepted(family))
        line = f'pub(crate) const {family}: &str = "{names}";'
        if len(line) > 100 and len(f'    "{names}";') <= 100:  # as rustfmt breaks it
            line = f'pub(crate) const {family}: &str =\n    "{names}";'
        print(line + "\n")
    for param, family in [("loss", "LOSSES"), ("metrics", "METRICS")]:
        print(f'pub(crate) const {family}: &str = "{" ".join(compile_names_taken(param))}";\n')
    body = "\n".join(layer_params())
    print(
        f'/// `Class param param` lines, sorted by class.\npub(crate) const LAYER_PARAMS: &str = "\\\n{body}\n";\n'
    )
    body = "\n".join(paddings())
    print(
        f'/// `Class name name` lines, sorted by class.\npub(crate) const PADDINGS: &str = "\\\n{body}\n";'
    )


if __name__ == "__main__":
    main()
