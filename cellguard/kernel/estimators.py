"""scikit-learn estimators, pipelines and transformers (and sklearn-API models such as XGBoost's and
LightGBM's, which subclass `BaseEstimator`), plus LabelEncoder.

Every fact is read from the instances' own `__dict__`s, where fitting stores it: properties,
`get_params` and `__sklearn_is_fitted__` may be a user's (a subclass's, or those of a user estimator
inside a library Pipeline), so none of them is called. A Pipeline's facts come from its steps, as
its own properties would take them: input features from the first, classes and the fitted state
from the last.
"""

import types

from .array_kinds import plain_array
from .frames import MAX_COLUMN_NAMES, capped_names, label_texts
from .introspect import (
    class_dict,
    class_module,
    class_mro,
    class_name,
    defining_class,
    instance_dict,
    is_subclass,
    is_trusted_type,
    library_class,
    library_version,
    qualified_name,
)
from .jsonsafe import short_repr, whole_number

MAX_PARAMS = 30
MAX_CLASSES = 50
_STEP_LISTS = ("steps", "transformers", "transformer_list", "estimators")


def summarizer_for(obj):
    base = library_class("sklearn.base", "BaseEstimator")
    cls = type(obj)
    if base is None or not is_subclass(cls, base):
        return None
    if class_name(cls) == "LabelEncoder" and class_module(cls).startswith("sklearn."):
        return summarize_label_encoder
    return summarize_estimator


def summarize_estimator(estimator, ctx) -> dict:
    first, last = _pipeline_ends(estimator)
    n_classes, classes = _classes(last)
    structural = {
        "n_features_in": whole_number(instance_dict(first).get("n_features_in_")),
        "n_outputs": whole_number(instance_dict(last).get("n_outputs_")),
        "n_classes": n_classes,
    }
    representation = {"params": _params(estimator), "feature_names_in": _feature_names(first)}
    # The library's release (what it removed or renamed depends on it), from the loaded module.
    library = class_module(type(estimator)).partition(".")[0]
    version = library_version(library) if library != "__main__" else None
    if version is not None:
        representation["library"] = library
        representation["version"] = version
    attributes = instance_dict(estimator)
    for key in _STEP_LISTS:
        steps = attributes.get(key)
        if type(steps) is list:
            representation["steps"] = [_step(step) for step in steps]
            break
    return {
        "kind": "estimator",
        "S": structural,
        "R": representation,
        "V": {"fitted": is_fitted(estimator), "classes": classes},
    }


def summarize_label_encoder(encoder, ctx) -> dict:
    n_classes, classes = _classes(encoder)
    if classes is None:
        return {"kind": "label_encoder", "V": {"fitted": False}}
    return {
        "kind": "label_encoder",
        "S": {"n_classes": n_classes},
        "R": {"classes_dtype": _array_dtype(instance_dict(encoder)["classes_"])},
        "V": {"fitted": True, "classes": classes},
    }


def is_fitted(estimator):
    """scikit-learn's convention: fitting sets attributes whose names end with "_". None (unknown)
    when the class decides for itself (`__sklearn_is_fitted__`), except a Pipeline: its last step's."""
    pipeline = _pipeline_steps(estimator)
    if pipeline is not None:
        last = _pipeline_ends(estimator)[1]
        return True if last is estimator else is_fitted(last)
    if defining_class(type(estimator), "__sklearn_is_fitted__") is not None:
        return None
    return any(
        type(name) is str and name.endswith("_") and not name.startswith("__")
        for name in instance_dict(estimator)
    )


def _pipeline_steps(estimator):
    """The `steps` list of a scikit-learn Pipeline (its own class), else None."""
    steps = instance_dict(estimator).get("steps")
    cls = type(estimator)
    is_pipeline = class_name(cls) == "Pipeline" and is_trusted_type(cls)
    return steps if is_pipeline and type(steps) is list else None


def _pipeline_ends(estimator) -> tuple:
    """(the first, the last) estimator of a Pipeline's steps; (estimator, estimator) otherwise
    (and for a Pipeline whose ends are 'passthrough')."""
    steps = _pipeline_steps(estimator)
    if not steps:
        return estimator, estimator
    ends = []
    for step in (steps[0], steps[-1]):
        transformer = step[1] if type(step) is tuple and len(step) >= 2 else None
        # 'drop', 'passthrough' or None (compared by type: `==` may be a user's `__eq__`).
        ends.append(estimator if transformer is None or type(transformer) is str else transformer)
    return ends[0], ends[-1]


def _params(estimator) -> dict:
    """The constructor parameters (the `__init__`s of the MRO, as `get_params` lists them) with
    the values the instance stores."""
    attributes = instance_dict(estimator)
    shown = {}
    for name in _init_parameter_names(type(estimator)):
        if name in _STEP_LISTS or name not in attributes or len(shown) >= MAX_PARAMS:
            continue
        shown[name] = short_repr(attributes[name], 40)
    return shown


def _init_parameter_names(cls) -> list:
    names = {}
    for klass in class_mro(cls):
        init = class_dict(klass).get("__init__")
        if type(init) is types.FunctionType:
            code = init.__code__
            for name in code.co_varnames[1 : code.co_argcount + code.co_kwonlyargcount]:
                names.setdefault(name, None)
    return list(names)


def _step(step):
    """[name, class] (plus the columns of a ColumnTransformer entry); 'drop' and 'passthrough'
    stay strings."""
    if type(step) is not tuple or len(step) < 2:
        return [short_repr(step, 80)]
    name, transformer, *rest = step
    described = [
        short_repr(name, 80) if type(name) is not str else name,
        transformer if type(transformer) is str else qualified_name(type(transformer)),
    ]
    return described + [short_repr(columns, 80) for columns in rest]


def _array_dtype(values):
    ndarray = library_class("numpy", "ndarray")
    is_array = ndarray is not None and is_subclass(type(values), ndarray)
    return str(plain_array(values).dtype) if is_array else None


def _classes(estimator):
    """(count, the first MAX_CLASSES classes), or (None, None) before fitting (or when they are
    not an array or list)."""
    classes = instance_dict(estimator).get("classes_")
    ndarray = library_class("numpy", "ndarray")
    if ndarray is not None and is_subclass(type(classes), ndarray):
        classes = plain_array(classes)
        return len(classes), classes[:MAX_CLASSES].tolist()
    if type(classes) in (list, tuple):
        return len(classes), list(classes[:MAX_CLASSES])
    return None, None


def _feature_names(estimator):
    names = instance_dict(estimator).get("feature_names_in_")
    ndarray = library_class("numpy", "ndarray")
    if ndarray is None or not is_subclass(type(names), ndarray):
        return None
    return capped_names(label_texts(plain_array(names)[:MAX_COLUMN_NAMES].tolist())[0])
