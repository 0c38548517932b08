"""scikit-learn estimators, pipelines and transformers (and sklearn-API models such as XGBoost's and
LightGBM's, which subclass `BaseEstimator`), plus LabelEncoder.

Attributes are read with getattr: scikit-learn's properties (`Pipeline.classes_`) only delegate to
fitted steps, and a missing attribute simply means "not fitted".
"""

import sys

from .frames import capped_names
from .introspect import library_attr, qualified_name
from .jsonsafe import short_repr

MAX_PARAMS = 30
MAX_CLASSES = 50
_STEP_LISTS = ("steps", "transformers", "transformer_list", "estimators")


def summarizer_for(obj):
    base = sys.modules.get("sklearn.base")
    if base is None or not issubclass(type(obj), vars(base)["BaseEstimator"]):
        return None
    if type(obj).__name__ == "LabelEncoder" and type(obj).__module__.startswith("sklearn."):
        return summarize_label_encoder
    return summarize_estimator


def summarize_estimator(estimator, ctx) -> dict:
    n_classes, classes = _classes(estimator)
    structural = {
        "n_features_in": library_attr(estimator, "n_features_in_"),
        "n_outputs": library_attr(estimator, "n_outputs_"),
        "n_classes": n_classes,
    }
    representation = {"params": _params(estimator), "feature_names_in": _feature_names(estimator)}
    for key in _STEP_LISTS:
        steps = library_attr(estimator, key)
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
        "R": {"classes_dtype": str(encoder.classes_.dtype)},
        "V": {"fitted": True, "classes": classes},
    }


def is_fitted(estimator) -> bool:
    validation = sys.modules.get("sklearn.utils.validation")
    check_is_fitted = vars(validation).get("check_is_fitted") if validation is not None else None
    if check_is_fitted is not None:
        try:
            check_is_fitted(estimator)
            return True
        except Exception as exc:
            if type(exc).__name__ == "NotFittedError":
                return False
    # scikit-learn's convention: fitting sets attributes whose names end with "_".
    return any(name.endswith("_") and not name.startswith("__") for name in vars(estimator))


def _params(estimator) -> dict:
    try:
        params = estimator.get_params(deep=False)
    except Exception:
        return {}
    shown = {}
    for name, value in params.items():
        if name in _STEP_LISTS or len(shown) >= MAX_PARAMS:
            continue
        shown[name] = short_repr(value, 40)
    return shown


def _step(step):
    """[name, class] (plus the columns of a ColumnTransformer entry); 'drop' and 'passthrough'
    stay strings."""
    name, transformer, *rest = step
    described = [
        name,
        transformer if type(transformer) is str else qualified_name(type(transformer)),
    ]
    return described + [short_repr(columns, 80) for columns in rest]


def _classes(estimator):
    """(count, the first MAX_CLASSES classes), or (None, None) before fitting."""
    classes = library_attr(estimator, "classes_")
    if classes is None:
        return None, None
    return len(classes), list(classes[:MAX_CLASSES])


def _feature_names(estimator):
    names = library_attr(estimator, "feature_names_in_")
    return None if names is None else capped_names([str(name) for name in names])
